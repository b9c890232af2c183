#!/usr/bin/python3
"""ResNet-50 v1.5 in the ONNX model zoo's structure, random seeded weights: Conv (no bias) +
BatchNormalization (not folded) + Relu, the stride in each bottleneck's 3x3 conv (v1.5), MaxPool,
GlobalAveragePool, Flatten, Gemm. Input 'data' [N,3,224,224], output 'output' [N,1000]; opset 13.

Usage: /usr/bin/python3 scripts/models/resnet50.py -o resnet50.onnx [--batch N|8] [--data DIR]
"""
import numpy as np

from model_common import finish, graph_builder, parse_args, value_info, write_test_input


# (width, blocks, stride) of the four stages of bottlenecks.
STAGES = ((64, 3, 1), (128, 4, 2), (256, 6, 2), (512, 3, 2))


def conv_bn(b, x, cin, cout, k, stride, relu, gamma=(0.8, 1.2)):
    w = b.init("conv_W", b.he((cout, cin, k, k), cin * k * k))
    y = b.node("Conv", [x, w], kernel_shape=[k, k], strides=[stride, stride], pads=[k // 2] * 4)
    # Statistics near what the conv gives (mean 0, var about 2 from He weights), so the
    # normalized values stay about N(0, gamma^2).
    scale = b.init("bn_scale", b.uniform(gamma[0], gamma[1], cout))
    bias = b.init("bn_B", b.uniform(-0.1, 0.1, cout))
    mean = b.init("bn_mean", b.uniform(-0.1, 0.1, cout))
    var = b.init("bn_var", b.uniform(1.5, 2.5, cout))
    y = b.node("BatchNormalization", [y, scale, bias, mean, var], epsilon=1e-5)
    return b.node("Relu", [y]) if relu else y


def bottleneck(b, x, cin, width, stride):
    cout = width * 4
    y = conv_bn(b, x, cin, width, 1, 1, True)
    y = conv_bn(b, y, width, width, 3, stride, True)
    # The last BN small, as trained ResNets have it: the sum with the shortcut stays O(1).
    y = conv_bn(b, y, width, cout, 1, 1, False, gamma=(0.2, 0.4))
    short = conv_bn(b, x, cin, cout, 1, stride, False) if stride != 1 or cin != cout else x
    return b.node("Relu", [b.node("Add", [y, short])]), cout


def main():
    args = parse_args(__doc__.splitlines()[0], "resnet50.onnx")
    b = graph_builder(args.seed)
    y = conv_bn(b, "data", 3, 64, 7, 2, True)
    y = b.node("MaxPool", [y], kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1])
    c = 64
    for width, blocks, stride in STAGES:
        for k in range(blocks):
            y, c = bottleneck(b, y, c, width, stride if k == 0 else 1)
    y = b.node("GlobalAveragePool", [y])
    y = b.node("Flatten", [y], axis=1)
    w = b.init("fc_W", b.he((1000, c), c, gain=1.0))
    fc_b = b.init("fc_B", np.zeros(1000))
    b.node("Gemm", [y, w, fc_b], name="fc", output="output", transB=1)
    finish(b, [value_info("data", [args.batch, 3, 224, 224])], [value_info("output", [args.batch, 1000])],
           13, "resnet50_v1.5", args)
    write_test_input(args, [args.batch, 3, 224, 224], args.seed + 100)


if __name__ == "__main__":
    main()
