#!/usr/bin/python3
"""MobileNet v2 (1.0, 224) in the ONNX model zoo's structure, random seeded weights: Conv with
bias (batch norm folded, as exporters write it) + Clip(0, 6) as ReLU6, depthwise 3x3 convs
(group = channels), inverted residuals with Add, GlobalAveragePool, Flatten, Gemm. Clip's bounds
are constant inputs (opset 13). Input 'input' [N,3,224,224], output 'output' [N,1000].

Usage: /usr/bin/python3 scripts/models/mobilenet_v2.py -o mobilenet_v2.onnx [--batch N|1] [--data DIR]
"""
import numpy as np

from model_common import finish, graph_builder, parse_args, value_info, write_test_input


# (expansion t, output channels, blocks n, first stride s) of the inverted residual stages.
SETTINGS = ((1, 16, 1, 1), (6, 24, 2, 2), (6, 32, 3, 2), (6, 64, 4, 2), (6, 96, 3, 1), (6, 160, 3, 2), (6, 320, 1, 1))


def conv(b, x, cin, cout, k, stride, group, relu6, gain=2.0):
    w = b.init("conv_W", b.he((cout, cin // group, k, k), (cin // group) * k * k, gain))
    bias = b.init("conv_B", b.uniform(-0.05, 0.05, cout))
    y = b.node("Conv", [x, w, bias], kernel_shape=[k, k], strides=[stride, stride], pads=[k // 2] * 4,
               group=group)
    return b.node("Clip", [y, b.lo, b.hi]) if relu6 else y


def inverted_residual(b, x, cin, cout, stride, expand):
    hidden = cin * expand
    y = conv(b, x, cin, hidden, 1, 1, 1, True) if expand != 1 else x
    y = conv(b, y, hidden, hidden, 3, stride, hidden, True)
    # The linear bottleneck: small weights so the residual sums stay O(1).
    y = conv(b, y, hidden, cout, 1, 1, 1, False, gain=0.5)
    return b.node("Add", [x, y]) if stride == 1 and cin == cout else y


def main():
    args = parse_args(__doc__.splitlines()[0], "mobilenet_v2.onnx")
    b = graph_builder(args.seed)
    b.lo = b.init("clip_min", np.float32(0.0))
    b.hi = b.init("clip_max", np.float32(6.0))
    y = conv(b, "input", 3, 32, 3, 2, 1, True)
    c = 32
    for t, cout, n, s in SETTINGS:
        for k in range(n):
            y = inverted_residual(b, y, c, cout, s if k == 0 else 1, t)
            c = cout
    y = conv(b, y, c, 1280, 1, 1, 1, True)
    y = b.node("GlobalAveragePool", [y])
    y = b.node("Flatten", [y], axis=1)
    w = b.init("fc_W", b.he((1000, 1280), 1280, gain=1.0))
    fc_b = b.init("fc_B", np.zeros(1000))
    b.node("Gemm", [y, w, fc_b], name="fc", output="output", transB=1)
    finish(b, [value_info("input", [args.batch, 3, 224, 224])], [value_info("output", [args.batch, 1000])],
           13, "mobilenet_v2", args)
    write_test_input(args, [args.batch, 3, 224, 224], args.seed + 100)


if __name__ == "__main__":
    main()
