#!/usr/bin/python3
"""One BERT-base encoder layer as exporters write it (opset 17): MatMul + Add projections,
Reshape/Transpose to 12 heads, MatMul, Div by sqrt(64), Softmax, MatMul, output projection,
residual Add, LayerNormalization, the feed-forward block with GELU written with Erf
(x * 0.5 * (1 + erf(x / sqrt 2))), residual Add, LayerNormalization. Random seeded weights.
Input 'hidden' [N,S,768], output 'output' [N,S,768].

Usage: /usr/bin/python3 scripts/models/bert_encoder.py -o bert_encoder.onnx [--batch N|1] [--seq 128] [--data DIR]
"""
import sys

import numpy as np

from model_common import finish, graph_builder, parse_args, value_info, write_test_input

H, HEADS, FF = 768, 12, 3072


def linear(b, x, cin, cout, gain=1.0):
    w = b.init("W", b.he((cin, cout), cin, gain))
    bias = b.init("B", b.uniform(-0.02, 0.02, cout))
    return b.node("Add", [b.node("MatMul", [x, w]), bias])


def layer_norm(b, x):
    scale = b.init("ln_scale", b.uniform(0.9, 1.1, H))
    bias = b.init("ln_B", b.uniform(-0.05, 0.05, H))
    return b.node("LayerNormalization", [x, scale, bias], axis=-1, epsilon=1e-12)


def main():
    seq = 128
    if "--seq" in sys.argv:  # taken out before the common options are parsed
        k = sys.argv.index("--seq")
        seq = int(sys.argv[k + 1])
        del sys.argv[k:k + 2]
    args = parse_args(__doc__.splitlines()[0], "bert_encoder.onnx")
    b = graph_builder(args.seed)
    heads_shape = b.init("heads_shape", [0, 0, HEADS, H // HEADS], np.int64)
    merged_shape = b.init("merged_shape", [0, 0, H], np.int64)

    def heads(x, perm):
        return b.node("Transpose", [b.node("Reshape", [x, heads_shape])], perm=perm)

    x = "hidden"
    q = heads(linear(b, x, H, H), [0, 2, 1, 3])
    k = heads(linear(b, x, H, H), [0, 2, 3, 1])
    v = heads(linear(b, x, H, H), [0, 2, 1, 3])
    scores = b.node("Div", [b.node("MatMul", [q, k]), b.init("sqrt_d", np.float32(np.sqrt(H // HEADS)))])
    probs = b.node("Softmax", [scores], axis=-1)
    ctx = b.node("Transpose", [b.node("MatMul", [probs, v])], perm=[0, 2, 1, 3])
    ctx = b.node("Reshape", [ctx, merged_shape])
    att = layer_norm(b, b.node("Add", [linear(b, ctx, H, H, gain=0.5), x]))
    h = linear(b, att, H, FF, gain=2.0)
    erf = b.node("Erf", [b.node("Div", [h, b.init("sqrt2", np.float32(np.sqrt(2.0)))])])
    gelu = b.node("Mul", [b.node("Mul", [h, b.node("Add", [erf, b.init("one", np.float32(1.0))])]),
                          b.init("half", np.float32(0.5))])
    ff = linear(b, gelu, FF, H, gain=0.5)
    scale = b.init("ln_scale", b.uniform(0.9, 1.1, H))
    bias = b.init("ln_B", b.uniform(-0.05, 0.05, H))
    b.node("LayerNormalization", [b.node("Add", [ff, att]), scale, bias], name="ln_out", output="output",
           axis=-1, epsilon=1e-12)
    finish(b, [value_info("hidden", [args.batch, seq, H])], [value_info("output", [args.batch, seq, H])],
           17, "bert_encoder_layer", args)
    write_test_input(args, [args.batch, seq, H], args.seed + 100)


if __name__ == "__main__":
    main()
