#!/usr/bin/python3
"""The QDQ forms of ResNet-50 v1.5, MobileNet v2 and the BERT-base encoder layer, written as
onnxruntime.quantization writes them (qdq_builder.py says how): opset 13, BatchNormalization
folded into the convolutions, s8 weights per output channel, int32 biases, u8 activations
calibrated per tensor on seeded inputs (the float model evaluated with numpy), the graph input
quantized first, a Q -> DQ pair after every Relu/Clip, Add, MaxPool, GlobalAveragePool and
Flatten, and the final Gemm in int8 with f32 logits out. Random seeded weights (the structure of
resnet50.py, mobilenet_v2.py and bert_encoder.py).

BERT: the projections MatMul(DQ(x), DQ(W s8 per column, axis 1)) + f32 bias, then Q -> DQ; the
attention's two MatMuls of activations, the scaling Div, Softmax, GELU (Erf form) and
LayerNormalization are float ops between DQ and Q; the output (the last LayerNormalization) is f32.

Usage: /usr/bin/python3 scripts/models/qdq_models.py resnet50|mobilenet_v2|bert_encoder -o FILE.onnx
         [--batch N|1] [--data DIR] [--resolution 224] [--blocks 3,4,6,3] [--seq 128]
--resolution and --blocks (ResNet's bottlenecks per stage) give smaller variants for quick tests.
"""
import math
import sys

import numpy as np

from bert_encoder import FF, H, HEADS
from mobilenet_v2 import SETTINGS
from model_common import finish, parse_args, value_info, write_test_input
from qdq_builder import qdq_builder
from resnet50 import STAGES

CALIBRATION_BATCH = 2


def take_option(name, default):
    """Takes --name VALUE out of sys.argv (before the common options are parsed)."""
    if name not in sys.argv:
        return default
    k = sys.argv.index(name)
    v = sys.argv[k + 1]
    del sys.argv[k:k + 2]
    return v


def folded_conv(b, cin, cout, k, group=1, gamma=(0.8, 1.2), gain=2.0):
    """He weights and a BatchNormalization folded into them: (weights, bias)."""
    w = b.he((cout, cin // group, k, k), (cin // group) * k * k, gain)
    g, beta = b.uniform(gamma[0], gamma[1], cout), b.uniform(-0.1, 0.1, cout)
    mean, var = b.uniform(-0.1, 0.1, cout), b.uniform(1.5, 2.5, cout)
    f = g / np.sqrt(var + 1e-5)
    return (w * f[:, None, None, None]).astype(np.float32), (beta - mean * f).astype(np.float32)


def resnet50(b, x, blocks):
    x = b.conv(x, *folded_conv(b, 3, 64, 7), stride=2, act="relu")
    x = b.maxpool(x, 3, 2, 1)
    c = 64
    for (width, _, stride), n in zip(STAGES, blocks):
        for k in range(n):
            s = stride if k == 0 else 1
            y = b.conv(x, *folded_conv(b, c, width, 1), act="relu")
            y = b.conv(y, *folded_conv(b, width, width, 3), stride=s, act="relu")
            y = b.conv(y, *folded_conv(b, width, width * 4, 1, gamma=(0.2, 0.4)))
            short = b.conv(x, *folded_conv(b, c, width * 4, 1), stride=s) if s != 1 or c != width * 4 else x
            x = b.quantize(b.relu(b.add(y, short)))
            c = width * 4
    return x, c


def mobilenet_v2(b, x):
    x = b.conv(x, *folded_conv(b, 3, 32, 3), stride=2, act="clip")
    c = 32
    for t, cout, n, s in SETTINGS:
        for k in range(n):
            stride, hidden = s if k == 0 else 1, c * t
            y = b.conv(x, *folded_conv(b, c, hidden, 1), act="clip") if t != 1 else x
            y = b.conv(y, *folded_conv(b, hidden, hidden, 3, group=hidden), stride=stride, group=hidden, act="clip")
            y = b.conv(y, *folded_conv(b, hidden, cout, 1, gain=0.5))
            x = b.add(x, y) if stride == 1 and c == cout else y
            c = cout
    return b.conv(x, *folded_conv(b, c, 1280, 1), act="clip"), 1280


def layer_norm(b, x, output=None):
    scale, bias = b.uniform(0.9, 1.1, H), b.uniform(-0.05, 0.05, H)
    v = b.val[x]
    v = (v - v.mean(-1, keepdims=True)) / np.sqrt(v.var(-1, keepdims=True) + 1e-12) * scale + bias
    y = b.node("LayerNormalization", [x, b.init("ln_scale", scale), b.init("ln_B", bias)], output=output, axis=-1,
               epsilon=1e-12)
    b.val[y] = v.astype(np.float32)
    return y


def bert_encoder(b, x, output):
    heads_shape = b.init("heads_shape", [0, 0, HEADS, H // HEADS], np.int64)
    merged_shape = b.init("merged_shape", [0, 0, H], np.int64)
    n, s = b.val[x].shape[:2]

    def linear(x, cin, cout, gain=1.0):
        return b.matmul(x, b.he((cin, cout), cin, gain), b.uniform(-0.02, 0.02, cout))

    def heads(x, perm):
        r = b.float_op("Reshape", [x, heads_shape], b.val[x].reshape(n, s, HEADS, H // HEADS))
        t = b.float_op("Transpose", [b.quantize(r, like=x)], b.val[r].transpose(perm), perm=perm)
        return b.quantize(t, like=x)

    def matmul(p, q):
        return b.quantize(b.float_op("MatMul", [p, q], b.val[p] @ b.val[q]))

    q, k, v = heads(linear(x, H, H), [0, 2, 1, 3]), heads(linear(x, H, H), [0, 2, 3, 1]), heads(linear(x, H, H), [0, 2, 1, 3])
    scores = matmul(q, k)
    d = np.float32(np.sqrt(H // HEADS))
    scaled = b.float_op("Div", [scores, b.init("sqrt_d", d)], b.val[scores] / d)
    e = np.exp(b.val[scaled] - b.val[scaled].max(-1, keepdims=True))
    probs = b.quantize(b.float_op("Softmax", [scaled], e / e.sum(-1, keepdims=True), axis=-1))
    ctx = matmul(probs, v)
    t = b.float_op("Transpose", [ctx], b.val[ctx].transpose(0, 2, 1, 3), perm=[0, 2, 1, 3])
    t = b.quantize(t, like=ctx)
    ctx = b.float_op("Reshape", [t, merged_shape], b.val[t].reshape(n, s, H))
    ctx = b.quantize(ctx, like=t)
    att = b.quantize(layer_norm(b, b.add(linear(ctx, H, H, gain=0.5), x)))
    h = linear(att, H, FF, gain=2.0)
    sqrt2, one, half = np.float32(np.sqrt(2.0)), np.float32(1.0), np.float32(0.5)
    erf = np.vectorize(math.erf, otypes=[np.float32])
    hv = b.val[h]
    g = b.float_op("Div", [h, b.init("sqrt2", sqrt2)], hv / sqrt2)
    g = b.float_op("Erf", [g], erf(b.val[g]))
    g = b.float_op("Add", [g, b.init("one", one)], b.val[g] + one)
    g = b.float_op("Mul", [h, g], hv * b.val[g])
    g = b.quantize(b.float_op("Mul", [g, b.init("half", half)], b.val[g] * half))
    ff = linear(g, FF, H, gain=0.5)
    layer_norm(b, b.add(ff, att), output=output)


def main():
    which = sys.argv.pop(1) if len(sys.argv) > 1 and not sys.argv[1].startswith("-") else None
    if which not in ("resnet50", "mobilenet_v2", "bert_encoder"):
        sys.exit(__doc__)
    resolution = int(take_option("--resolution", "224"))
    blocks = [int(v) for v in take_option("--blocks", ",".join(str(st[1]) for st in STAGES)).split(",")]
    seq = int(take_option("--seq", "128"))
    args = parse_args(__doc__.splitlines()[0], which + "_qdq.onnx")
    b = qdq_builder(args.seed)
    if which == "bert_encoder":
        shape, x_name, out_name = [args.batch, seq, H], "hidden", "output"
    else:
        shape, x_name, out_name = [args.batch, 3, resolution, resolution], "input", "output"
    # The calibration batch: seeded inputs other than the test input's (args.seed + 100).
    cal = np.random.default_rng(args.seed + 200).standard_normal([CALIBRATION_BATCH] + shape[1:]).astype(np.float32)
    b.val[x_name] = cal
    x = b.quantize(x_name)
    if which == "bert_encoder":
        bert_encoder(b, x, out_name)
        opset = 17  # LayerNormalization
    else:
        y, c = resnet50(b, x, blocks) if which == "resnet50" else mobilenet_v2(b, x)
        y = b.global_avg_pool_flatten(y)
        b.gemm(y, b.he((1000, c), c, gain=1.0), b.uniform(-0.02, 0.02, 1000), out_name)
        opset = 13
    out_shape = [args.batch, seq, H] if which == "bert_encoder" else [args.batch, 1000]
    finish(b, [value_info(x_name, shape)], [value_info(out_name, out_shape)], opset, which + "_qdq", args)
    write_test_input(args, shape, args.seed + 100)


if __name__ == "__main__":
    main()
