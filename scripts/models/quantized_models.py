#!/usr/bin/python3
"""Small quantized ONNX models for prim's tests (tests/test_onnx_quantized.cpp), written at test
time into OUTDIR, one file per case: Q -> DQ round trips per axis, a QDQ convolution as
onnxruntime.quantization writes it, QLinearConv / ConvInteger / QLinearMatMul with the weights
prim takes, and the malformed quantizations the loader or the graph must refuse. The values
(scales, zero points, weights) are fixed here; the test's oracle repeats them.

Usage: /usr/bin/python3 scripts/models/quantized_models.py OUTDIR
"""
import os
import sys

import numpy as np
from onnx import TensorProto, helper, numpy_helper, save

F, U8, I8, I32 = TensorProto.FLOAT, TensorProto.UINT8, TensorProto.INT8, TensorProto.INT32


def vi(name, dims, elem=F):
    return helper.make_tensor_value_info(name, elem, dims)


def model(nodes, inputs, outputs, inits=(), opset=13):
    g = helper.make_graph(nodes, "g", inputs, outputs, initializer=list(inits))
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)], producer_name="prim-tests")


def const(name, values, dtype=np.float32):
    return numpy_helper.from_array(np.array(values, dtype=dtype), name)


# The round trips: x (2, 3, 4, 5) quantized along `axis` with the dim's scales and zero points
# (uniform or not), dequantized back. Outputs: q (the integers) and y.
DIMS = [2, 3, 4, 5]
SCALES = {0: [0.05, 0.2], 1: [0.05, 0.1, 0.2], 2: [0.02, 0.05, 0.1, 0.2], 3: [0.02, 0.04, 0.05, 0.1, 0.2]}
ZPS_U8 = {0: [10, 200], 1: [10, 100, 200], 2: [5, 60, 120, 250], 3: [0, 50, 100, 150, 200]}


def round_trip(axis, elem, uniform):
    scales = SCALES[axis]
    if elem == U8:
        zps = [ZPS_U8[axis][0]] * len(scales) if uniform else ZPS_U8[axis]
        dtype = np.uint8
    else:
        zps = [z - 128 for z in ZPS_U8[axis]] if not uniform else [-3] * len(scales)
        dtype = np.int8
    return model([helper.make_node("QuantizeLinear", ["x", "s", "z"], ["q"], axis=axis),
                  helper.make_node("DequantizeLinear", ["q", "s", "z"], ["y"], axis=axis)],
                 [vi("x", DIMS)], [vi("q", DIMS, elem), vi("y", DIMS)],
                 [const("s", scales), const("z", zps, dtype)])


# The QDQ convolution (onnxruntime.quantization's form): x (1, 3, 8, 8) -> Q/DQ (u8, per tensor)
# -> Conv 3x3 pad 1, 4 output channels, with DQ(weights s8 per channel, axis 0) and DQ(bias int32,
# scale sx * sw, axis 0) -> Relu -> Q (u8, zero point 10: the Relu matters) -> DQ -> y; q is the
# quantized output.
# sy, zy, hi: the output's scale and zero point, the Clip's upper bound; with zy 0 a Relu, and
# with sy = hi / 255 a Clip(0, hi), is the output's own saturation (the fuser drops it).
def qdq_conv(f32_weights=False, clip=False, sy=0.015, zy=10, hi=0.5):
    rng = np.random.default_rng(11)
    sx, zx = 0.02, 128
    w = rng.integers(-127, 128, size=(4, 3, 3, 3)).astype(np.int8)
    sw = np.array([0.002, 0.003, 0.004, 0.001], np.float32)
    b = np.array([300, -200, 0, 1000], np.int32)
    nodes = [helper.make_node("QuantizeLinear", ["x", "sx", "zx"], ["xq"]),
             helper.make_node("DequantizeLinear", ["xq", "sx", "zx"], ["xd"]),
             helper.make_node("DequantizeLinear", ["w", "sw", "zw"], ["wd"], axis=0),
             helper.make_node("DequantizeLinear", ["b", "sb", "zb"], ["bd"], axis=0),
             helper.make_node("Conv", ["xd", "wd", "bd"], ["c"], pads=[1, 1, 1, 1]),
             helper.make_node("Relu", ["c"], ["r"]),
             helper.make_node("QuantizeLinear", ["r", "sy", "zy"], ["q"]),
             helper.make_node("DequantizeLinear", ["q", "sy", "zy"], ["y"])]
    inits = [const("sx", sx), const("zx", zx, np.uint8), const("w", w, np.int8), const("sw", sw),
             const("zw", np.zeros(4), np.int8), const("b", b, np.int32), const("sb", sw * np.float32(sx)),
             const("zb", np.zeros(4), np.int32), const("sy", sy), const("zy", zy, np.uint8)]
    if clip:  # MobileNet v2's form: Clip(0, 6) with its bounds as initializers
        nodes[5] = helper.make_node("Clip", ["c", "lo", "hi"], ["r"])
        inits += [const("lo", 0.0), const("hi", hi)]
    if f32_weights:  # a near miss: the weights are f32, not behind a DequantizeLinear
        nodes = [n for n in nodes if n.output[0] != "wd"]
        inits = [i for i in inits if i.name not in ("w", "sw", "zw")] + [const("wd", w * sw[:, None, None, None])]
    return model(nodes, [vi("x", [1, 3, 8, 8])], [vi("q", [1, 4, 8, 8], U8), vi("y", [1, 4, 8, 8])], inits)


# The same convolution as one QLinearConv (u8 in, s8 weights per channel, int32 bias, u8 out),
# with u8 weights whose zero point 128 shifts them into s8 exactly, and (wide) with u8 weights
# that do not fit s8 after their zero point (prim's f32 route).
def qlinear_conv(u8_weights, wide=False):
    rng = np.random.default_rng(11)
    w = rng.integers(-127, 128, size=(4, 3, 3, 3))
    wz = np.full(4, 128 if u8_weights else 0)
    if wide:
        wz = np.array([10, 200, 0, 255])
        w = rng.integers(0, 256, size=(4, 3, 3, 3)) - wz[:, None, None, None]
    wt, wdt = (np.uint8, U8) if u8_weights else (np.int8, I8)
    inits = [const("sx", 0.02), const("zx", 128, np.uint8), const("w", w + wz[:, None, None, None], wt),
             const("sw", [0.002, 0.003, 0.004, 0.001]), const("zw", wz, wt), const("sy", 0.015),
             const("zy", 0, np.uint8), const("b", [300, -200, 0, 1000], np.int32)]
    return model([helper.make_node("QLinearConv", ["x", "sx", "zx", "w", "sw", "zw", "sy", "zy", "b"], ["y"],
                                   pads=[1, 1, 1, 1])],
                 [vi("x", [1, 3, 8, 8], U8)], [vi("y", [1, 4, 8, 8], U8)], inits, opset=10)


# ConvInteger with a per-channel weight zero point (u8 weights shifted into s8) and MatMulInteger
# with a per-column one (also batched: B with batch dims); QLinearMatMul with s8 B per column
# scale.
def conv_integer():
    w = np.arange(2 * 2 * 2 * 2).reshape(2, 2, 2, 2) % 7
    return model([helper.make_node("ConvInteger", ["x", "w", "xz", "wz"], ["y"])],
                 [vi("x", [1, 2, 3, 3], U8)], [vi("y", [1, 2, 2, 2], I32)],
                 [const("w", w + np.array([100, 3])[:, None, None, None], np.uint8), const("xz", 7, np.uint8),
                  const("wz", [100, 3], np.uint8)], opset=10)


def matmul_integer():
    b = (np.arange(12).reshape(4, 3) % 5) - 2
    return model([helper.make_node("MatMulInteger", ["a", "b", "az", "bz"], ["y"])],
                 [vi("a", [2, 3, 4], I8)], [vi("y", [2, 3, 3], I32)],
                 [const("b", b + np.array([1, -1, 2]), np.int8), const("az", -2, np.int8),
                  const("bz", [1, -1, 2], np.int8)], opset=10)


def matmul_integer_batched():
    b = ((np.arange(24).reshape(2, 4, 3) * 7) % 11) - 5
    return model([helper.make_node("MatMulInteger", ["a", "b", "az", "bz"], ["y"])],
                 [vi("a", [2, 3, 4], I8)], [vi("y", [2, 3, 3], I32)],
                 [const("b", b + np.array([1, -1, 2]), np.int8), const("az", 3, np.int8),
                  const("bz", [1, -1, 2], np.int8)], opset=10)


def qlinear_matmul():
    b = (np.arange(15).reshape(5, 3) * 37 % 255) - 127
    return model([helper.make_node("QLinearMatMul", ["a", "as", "az", "b", "bs", "bz", "ys", "yz"], ["y"])],
                 [vi("a", [4, 5], U8)], [vi("y", [4, 3], I8)],
                 [const("as", 0.03), const("az", 120, np.uint8), const("b", b, np.int8),
                  const("bs", [0.01, 0.02, 0.005]), const("bz", [0, 0, 0], np.int8), const("ys", 0.5),
                  const("yz", -10, np.int8)], opset=10)


# Malformed quantizations: each is refused naming the node and the reason.
def bad_cases():
    x = [vi("x", [1, 3, 2, 2])]
    c = {}

    def q(scale, zp=None, axis=1, zdt=np.uint8, out=U8, inputs=x, extra=()):
        names = ["x", "s"] + (["z"] if zp is not None else [])
        inits = [const("s", scale)] + ([const("z", zp, zdt)] if zp is not None else [])
        return model([helper.make_node("QuantizeLinear", names, ["y"], axis=axis)], inputs,
                     [vi("y", [1, 3, 2, 2], out)], inits + list(extra))

    c["bad_scale_zero"] = q(0.0, 3)
    c["bad_scale_nan"] = q([0.1, float("nan"), 0.2], [1, 2, 3])
    c["bad_axis"] = q([0.1, 0.2, 0.3], [1, 2, 3], axis=4)
    c["bad_scale_length"] = q([0.1, 0.2], [1, 2], axis=1)
    c["bad_zp_type_output"] = q(0.1, 3, out=I8)
    # A DequantizeLinear whose zero point has another type than its input.
    c["bad_zp_type_dq"] = model([helper.make_node("DequantizeLinear", ["x", "s", "z"], ["y"])],
                                [vi("x", [4], U8)], [vi("y", [4])], [const("s", 0.5), const("z", 3, np.int8)])
    c["bad_scale_input"] = model([helper.make_node("QuantizeLinear", ["x", "s"], ["y"])],
                                 [vi("x", [4]), vi("s", [])], [vi("y", [4], U8)])
    # A float op on a quantized tensor.
    c["bad_relu_u8"] = model([helper.make_node("QuantizeLinear", ["x", "s"], ["q"]),
                              helper.make_node("Relu", ["q"], ["y"])],
                             [vi("x", [4])], [vi("y", [4], U8)], [const("s", 0.5)])
    return c


# The QDQ fuser's patterns (tests/test_onnx_qdq_fusion.cpp), each with x (1, 4, 6, 6) f32 in and
# the quantized graph's f32 result y out; names say what the fuser must do with them.
def qdq(x, s, z, name, nodes, inits, zdt=np.uint8):
    inits += [const(name + "_s", s), const(name + "_z", z, zdt)]
    nodes += [helper.make_node("QuantizeLinear", [x, name + "_s", name + "_z"], [name + "_q"]),
              helper.make_node("DequantizeLinear", [name + "_q", name + "_s", name + "_z"], [name + "_d"])]
    return name + "_d"


def conv1x1(x, name, nodes, inits, seed):
    """A QDQ 1x1 convolution of 4 channels (s8 weights per channel, int32 bias), the graph's
    quantized input x's scale being 0.02."""
    rng = np.random.default_rng(seed)
    sw = np.array([0.01, 0.02, 0.015, 0.005], np.float32)
    inits += [const(name + "_w", rng.integers(-127, 128, size=(4, 4, 1, 1)), np.int8), const(name + "_ws", sw),
              const(name + "_wz", np.zeros(4), np.int8), const(name + "_b", [50, -30, 0, 100], np.int32),
              const(name + "_bs", sw * np.float32(0.02)), const(name + "_bz", np.zeros(4), np.int32)]
    nodes += [helper.make_node("DequantizeLinear", [name + "_w", name + "_ws", name + "_wz"], [name + "_wd"], axis=0),
              helper.make_node("DequantizeLinear", [name + "_b", name + "_bs", name + "_bz"], [name + "_bd"], axis=0),
              helper.make_node("Conv", [x, name + "_wd", name + "_bd"], [name + "_y"])]
    return name + "_y"


def fusion_cases():
    c = {}
    xin, yout = [vi("x", [1, 4, 6, 6])], [vi("y", [1, 4, 6, 6])]

    # Residual (a ResNet block): Q(DQ(conv2(conv1(x))) + DQ(x)) -> DQ -> Relu -> Q -> DQ; every
    # scale and zero point differ. late_reader: another convolution reads x's integers after
    # conv2 (the sum may not overwrite them); x_zp: x's zero point (the sum's).
    def residual(late_reader, x_zp=0):
        nodes, inits = [], []
        xd = qdq("x", 0.02, x_zp, "xq", nodes, inits)
        h = qdq(conv1x1(xd, "c1", nodes, inits, 3), 0.02, 110, "hq", nodes, inits)
        a = qdq(conv1x1(h, "c3", nodes, inits, 5), 0.03, 120, "aq", nodes, inits)
        nodes.append(helper.make_node("Add", [a, xd], ["sum"]))
        r = qdq("sum", 0.04, 100, "sq", nodes, inits)
        nodes.append(helper.make_node("Relu", [r], ["relu"]))
        y = qdq("relu", 0.025, 0, "rq", nodes, inits)
        outs = [vi(y, [1, 4, 6, 6])]
        if late_reader:
            outs.append(vi(qdq(conv1x1(xd, "c2", nodes, inits, 4), 0.03, 110, "lq", nodes, inits), [1, 4, 6, 6]))
        return model(nodes, xin, outs, inits)

    c["fuse_residual"] = residual(False)
    c["fuse_residual_late_reader"] = residual(True)
    c["fuse_residual_zp"] = residual(False, 128)  # the sum with a zero point

    # Pooling and Flatten on u8 (the same parameters), then the final Gemm in int8 with f32 logits.
    def pool_gemm(other_params):
        nodes, inits = [], []
        xd = qdq("x", 0.02, 128, "xq", nodes, inits)
        nodes.append(helper.make_node("MaxPool", [xd], ["mp"], kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1]))
        m = qdq("mp", 0.02, 128, "mq", nodes, inits) if not other_params else qdq("mp", 0.03, 100, "mq", nodes, inits)
        nodes.append(helper.make_node("GlobalAveragePool", [m], ["gap"]))
        g = qdq("gap", *((0.02, 128) if not other_params else (0.03, 100)), "gq", nodes, inits)
        nodes.append(helper.make_node("Flatten", [g], ["flat"], axis=1))
        f = qdq("flat", *((0.02, 128) if not other_params else (0.03, 100)), "fq", nodes, inits)
        rng = np.random.default_rng(5)
        sw = np.array([0.01, 0.02, 0.03, 0.015, 0.005], np.float32)
        sx = np.float32(0.02 if not other_params else 0.03)
        inits += [const("fc_w", rng.integers(-127, 128, size=(5, 4)), np.int8), const("fc_ws", sw),
                  const("fc_wz", np.zeros(5), np.int8), const("fc_b", [10, -20, 30, 0, 5], np.int32),
                  const("fc_bs", sw * sx), const("fc_bz", np.zeros(5), np.int32)]
        nodes += [helper.make_node("DequantizeLinear", ["fc_w", "fc_ws", "fc_wz"], ["fc_wd"], axis=0),
                  helper.make_node("DequantizeLinear", ["fc_b", "fc_bs", "fc_bz"], ["fc_bd"], axis=0),
                  helper.make_node("Gemm", [f, "fc_wd", "fc_bd"], ["y"], transB=1)]
        return model(nodes, xin, [vi("y", [1, 5])], inits)

    c["fuse_pool_gemm"] = pool_gemm(False)
    c["fuse_pool_other_params"] = pool_gemm(True)

    # MatMul (s8 per column) + f32 bias -> Q, and a Sigmoid between DQ and Q (folded into the
    # int8 inner product's chain, requantized).
    def matmul_bias(nodes, inits, n=3):
        xd = qdq("x", 0.02, 128, "xq", nodes, inits)
        rng = np.random.default_rng(6)
        inits += [const("mw", rng.integers(-127, 128, size=(6, n)), np.int8), const("mws", rng.uniform(0.005, 0.02, n)),
                  const("mwz", np.zeros(n), np.int8), const("mb", rng.uniform(-0.2, 0.2, n))]
        nodes += [helper.make_node("DequantizeLinear", ["mw", "mws", "mwz"], ["mwd"], axis=1),
                  helper.make_node("MatMul", [xd, "mwd"], ["mm"]), helper.make_node("Add", ["mm", "mb"], ["mmb"])]
        return "mmb", xd

    nodes, inits = [], []
    m = qdq(matmul_bias(nodes, inits)[0], 0.01, 128, "mmq", nodes, inits)
    nodes.append(helper.make_node("Sigmoid", [m], ["sig"]))
    qdq("sig", 1 / 255.0, 0, "sgq", nodes, inits)
    c["fuse_matmul_sigmoid"] = model(nodes, [vi("x", [1, 4, 6, 6])], [vi("sgq_d", [1, 4, 6, 3])], inits)

    # BERT's FFN: GELU in its Erf form, x * (1 + erf(x / sqrt 2)) * 0.5, after the MatMul's Q ->
    # DQ (requantized: folded), straight after the bias (direct); with one of its inner results
    # read by a second output (not a GELU then: it runs in f32), or its own result read by one
    # (a GELU, but it stays an f32 op of its own).
    def gelu(x, nodes, inits):
        inits += [const("sqrt2", np.sqrt(2.0)), const("one", 1.0), const("half", 0.5)]
        nodes += [helper.make_node("Div", [x, "sqrt2"], ["g_div"]), helper.make_node("Erf", ["g_div"], ["g_erf"]),
                  helper.make_node("Add", ["g_erf", "one"], ["g_add"]), helper.make_node("Mul", [x, "g_add"], ["g_mul"]),
                  helper.make_node("Mul", ["g_mul", "half"], ["gelu"])]
        return "gelu"

    def matmul_gelu(requantized, also_read=None):
        nodes, inits = [], []
        y = matmul_bias(nodes, inits, 8)[0]
        g = gelu(qdq(y, 0.03, 60, "mmq", nodes, inits) if requantized else y, nodes, inits)
        outs = [vi(qdq(g, 0.02, 10, "gq", nodes, inits), [1, 4, 6, 8])]
        if also_read:
            outs.append(vi(also_read, [1, 4, 6, 8]))
        return model(nodes, [vi("x", [1, 4, 6, 6])], outs, inits, opset=13)

    c["fuse_matmul_gelu"] = matmul_gelu(True)
    c["fuse_matmul_gelu_direct"] = matmul_gelu(False)
    c["fuse_matmul_gelu_extra_reader"] = matmul_gelu(True, "g_erf")
    c["fuse_matmul_gelu_output_read"] = matmul_gelu(True, "gelu")

    # A transformer's residual: Q(DQ(MatMul + bias) + DQ(r)) -> DQ -> LayerNormalization (r a
    # second input): the Add becomes the int8 inner product's sum into r's integers.
    nodes, inits = [], []
    rd = qdq("r", 0.04, 100, "rq", nodes, inits)
    y = matmul_bias(nodes, inits, 6)[0]
    nodes.append(helper.make_node("Add", [qdq(y, 0.03, 110, "mmq", nodes, inits), rd], ["sum"]))
    inits += [const("ln_s", np.linspace(0.9, 1.1, 6)), const("ln_b", np.linspace(-0.1, 0.1, 6))]
    nodes.append(helper.make_node("LayerNormalization", [qdq("sum", 0.05, 120, "sq", nodes, inits), "ln_s", "ln_b"],
                                  ["y"], axis=-1, epsilon=1e-5))
    c["fuse_matmul_residual"] = model(nodes, [vi("x", [1, 4, 6, 6]), vi("r", [1, 4, 6, 6])], [vi("y", [1, 4, 6, 6])],
                                      inits, opset=17)

    # Attention's f32 round trips: MatMul (f32 weights) -> Q -> DQ -> Div -> Softmax -> Q -> DQ:
    # each Q -> DQ becomes entries of the chain before it; not when the integers have another
    # reader (a second output).
    def round_trips(integers_read):
        nodes, inits = [], []
        xd = qdq("x", 0.02, 128, "xq", nodes, inits)
        inits += [const("fw", np.random.default_rng(7).uniform(-1, 1, (6, 6))), const("d", 2.0)]
        nodes.append(helper.make_node("MatMul", [xd, "fw"], ["scores"]))
        nodes.append(helper.make_node("Div", [qdq("scores", 0.01, 120, "scq", nodes, inits), "d"], ["scaled"]))
        nodes.append(helper.make_node("Softmax", ["scaled"], ["probs"], axis=-1))
        outs = [vi(qdq("probs", 1 / 255.0, 0, "pq", nodes, inits), [1, 4, 6, 6])]
        if integers_read:
            outs.append(vi("scq_q", [1, 4, 6, 6], U8))
        return model(nodes, xin, outs, inits)

    c["fuse_round_trip"] = round_trips(False)
    c["fuse_round_trip_integers_read"] = round_trips(True)
    return c


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    files = {"qdq_conv": qdq_conv(), "qdq_conv_f32_weights": qdq_conv(True), "qdq_conv_clip": qdq_conv(clip=True),
             "qdq_conv_relu_sat": qdq_conv(zy=0), "qdq_conv_clip6_sat": qdq_conv(clip=True, sy=np.float32(6.0 / 255), zy=0, hi=6.0), "qlinear_conv_s8": qlinear_conv(False), "qlinear_conv_u8": qlinear_conv(True),
             "qlinear_conv_u8_wide": qlinear_conv(True, True),
             "conv_integer": conv_integer(), "matmul_integer": matmul_integer(),
             "matmul_integer_batched": matmul_integer_batched(), "qlinear_matmul": qlinear_matmul()}
    for axis in range(4):
        for elem, tname in ((U8, "u8"), (I8, "s8")):
            for uniform in (True, False):
                files["round_trip_axis%d_%s_%s" % (axis, tname, "uniform" if uniform else "zps")] = \
                    round_trip(axis, elem, uniform)
    files.update(bad_cases())
    files.update(fusion_cases())
    for name, m in files.items():
        save(m, os.path.join(out, name + ".onnx"))


if __name__ == "__main__":
    main()
