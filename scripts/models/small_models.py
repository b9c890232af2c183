#!/usr/bin/python3
"""Small ONNX models for prim's front-end tests (tests/test_onnx_loader.cpp), written at test time
into OUTDIR, one file per case. Each exercises one rule of the loader: attribute defaults per
opset, constant inputs turned into attributes, auto_pad, refusals.

Usage: /usr/bin/python3 scripts/models/small_models.py OUTDIR
"""
import os
import sys

import numpy as np
from onnx import TensorProto, helper, numpy_helper, save

F = TensorProto.FLOAT


def vi(name, dims, elem=F):
    return helper.make_tensor_value_info(name, elem, dims)


def model(nodes, inputs, outputs, opset, inits=(), name="g"):
    g = helper.make_graph(nodes, name, inputs, outputs, initializer=list(inits))
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)], producer_name="prim-tests")


def const(name, values, dtype=np.float32):
    return numpy_helper.from_array(np.array(values, dtype=dtype), name)


def write(outdir, name, m):
    save(m, os.path.join(outdir, name + ".onnx"))


def cases():
    rng = np.random.default_rng(7)
    w = lambda *d: const("W", rng.standard_normal(d).astype(np.float32))
    c = {}
    # auto_pad: 7 -> 4 with kernel 4, stride 2: 3 rows of padding, the odd one after (UPPER) or before (LOWER).
    for mode in ("SAME_UPPER", "SAME_LOWER", "VALID"):
        c["conv_" + mode.lower()] = model(
            [helper.make_node("Conv", ["x", "W"], ["y"], auto_pad=mode, strides=[2, 2])],
            [vi("x", [1, 2, 7, 7])], [vi("y", [1, 3, 2, 2] if mode == "VALID" else [1, 3, 4, 4])], 11, [w(3, 2, 4, 4)])
    # Symbolic spatial dims: auto_pad kept for the executor.
    c["conv_same_symbolic"] = model(
        [helper.make_node("Conv", ["x", "W"], ["y"], auto_pad="SAME_UPPER")],
        [vi("x", ["N", 2, "H", "W"])], [vi("y", ["N", 3, "H", "W"])], 11, [w(3, 2, 3, 3)])
    # Symbolic batch, fixed by the options; unnamed nodes get generated names.
    c["conv_relu_batch_n"] = model(
        [helper.make_node("Conv", ["x", "W", "B"], ["c"], pads=[1, 1, 1, 1]), helper.make_node("Relu", ["c"], ["y"])],
        [vi("x", ["N", 2, 5, 5])], [vi("y", ["N", 4, 5, 5])], 13, [w(4, 2, 3, 3), const("B", np.zeros(4))])
    # Clip in three opsets: attributes (6), constant inputs (11), no bounds (13).
    c["clip_opset6"] = model([helper.make_node("Clip", ["x"], ["y"], min=0.0, max=6.0)],
                             [vi("x", [2, 3])], [vi("y", [2, 3])], 6)
    c["clip_opset6_default"] = model([helper.make_node("Clip", ["x"], ["y"])],
                                     [vi("x", [2, 3])], [vi("y", [2, 3])], 6)
    c["clip_opset11_inputs"] = model([helper.make_node("Clip", ["x", "lo", "hi"], ["y"])],
                                     [vi("x", [2, 3])], [vi("y", [2, 3])], 11,
                                     [const("lo", 0.5), const("hi", 2.5)])
    c["clip_opset13_max_only"] = model([helper.make_node("Clip", ["x", "", "hi"], ["y"])],
                                       [vi("x", [2, 3])], [vi("y", [2, 3])], 13, [const("hi", 6.0)])
    c["clip_opset13_graph_input_bound"] = model([helper.make_node("Clip", ["x", "lo"], ["y"], name="clip_a")],
                                                [vi("x", [2, 3]), vi("lo", [])], [vi("y", [2, 3])], 13)
    # Reshape: shape from an int64 initializer, from a Constant node, and the opset-1 attribute.
    c["reshape_initializer"] = model([helper.make_node("Reshape", ["x", "s"], ["y"])],
                                     [vi("x", [2, 3, 4])], [vi("y", [2, 12])], 14, [const("s", [0, -1], np.int64)])
    c["reshape_constant_node"] = model(
        [helper.make_node("Constant", [], ["s"], value=const("v", [6, 4], np.int64)),
         helper.make_node("Reshape", ["x", "s"], ["y"])], [vi("x", [2, 3, 4])], [vi("y", [6, 4])], 13)
    c["reshape_opset4_attr"] = model([helper.make_node("Reshape", ["x"], ["y"], shape=[4, 6])],
                                     [vi("x", [2, 3, 4])], [vi("y", [4, 6])], 4)
    # An f32 Constant becomes an initializer.
    c["add_constant"] = model(
        [helper.make_node("Constant", [], ["k"], value=const("v", [[1.0, 2.0, 3.0]])),
         helper.make_node("Add", ["x", "k"], ["y"])], [vi("x", [2, 3])], [vi("y", [2, 3])], 13)
    c["constant_value_floats"] = model(
        [helper.make_node("Constant", [], ["k"], value_floats=[1.0, 2.0, 3.0]),
         helper.make_node("Mul", ["x", "k"], ["y"])], [vi("x", [2, 3])], [vi("y", [2, 3])], 13)
    # Squeeze and Unsqueeze axes: attribute (11), input (13), none (all dims of 1).
    c["squeeze_opset11_no_axes"] = model([helper.make_node("Squeeze", ["x"], ["y"])],
                                         [vi("x", [1, 3, 1, 2])], [vi("y", [3, 2])], 11)
    c["unsqueeze_opset13_input"] = model([helper.make_node("Unsqueeze", ["x", "a"], ["y"])],
                                         [vi("x", [3, 2])], [vi("y", [1, 3, 2, 1])], 13, [const("a", [0, 3], np.int64)])
    # Softmax before opset 13: the last axis is exact, another axis over several dims is refused.
    c["softmax_opset11_last"] = model([helper.make_node("Softmax", ["x"], ["y"])],
                                      [vi("x", [4, 10])], [vi("y", [4, 10])], 11)
    c["softmax_opset11_axis1_rank4"] = model([helper.make_node("Softmax", ["x"], ["y"], name="sm")],
                                             [vi("x", [1, 3, 4, 4])], [vi("y", [1, 3, 4, 4])], 11)
    c["softmax_opset13_default"] = model([helper.make_node("Softmax", ["x"], ["y"])],
                                         [vi("x", [1, 3, 4, 4])], [vi("y", [1, 3, 4, 4])], 13)
    # Defaults filled in.
    c["leaky_relu_default"] = model([helper.make_node("LeakyRelu", ["x"], ["y"])],
                                    [vi("x", [4])], [vi("y", [4])], 6)
    c["transpose_default"] = model([helper.make_node("Transpose", ["x"], ["y"])],
                                   [vi("x", [2, 3, 4])], [vi("y", [4, 3, 2])], 13)
    c["gemm_opset6_broadcast"] = model(
        [helper.make_node("Gemm", ["a", "b", "c"], ["y"], broadcast=1, transB=1)],
        [vi("a", [3, 5]), vi("b", [4, 5])], [vi("y", [3, 4])], 6, [const("c", np.ones(4))])
    c["gemm_bad_c"] = model([helper.make_node("Gemm", ["a", "b", "c"], ["y"], name="fc")],
                            [vi("a", [3, 5]), vi("b", [5, 4])], [vi("y", [3, 4])], 13, [const("c", np.ones((3, 3)))])
    # Legacy broadcasting (opset 6): suffix axis accepted, another axis refused.
    c["add_opset6_suffix_axis"] = model([helper.make_node("Add", ["x", "b"], ["y"], broadcast=1, axis=2)],
                                        [vi("x", [2, 3, 4])], [vi("y", [2, 3, 4])], 6, [const("b", np.ones(4))])
    c["add_opset6_axis1"] = model([helper.make_node("Add", ["x", "b"], ["y"], broadcast=1, axis=1, name="bias")],
                                  [vi("x", [2, 3, 4])], [vi("y", [2, 3, 4])], 6, [const("b", np.ones(3))])
    # Without broadcast=1 opset 6 takes equal shapes only (Add and Gemm's C).
    c["add_opset6_no_broadcast"] = model([helper.make_node("Add", ["x", "b"], ["y"], name="plain")],
                                         [vi("x", [2, 3, 4])], [vi("y", [2, 3, 4])], 6, [const("b", np.ones(4))])
    c["gemm_opset6_no_broadcast"] = model(
        [helper.make_node("Gemm", ["a", "b", "c"], ["y"], transB=1, name="fc6")],
        [vi("a", [3, 5]), vi("b", [4, 5])], [vi("y", [3, 4])], 6, [const("c", np.ones(4))])
    # Refusals naming node, op and attribute or input.
    c["bn_spatial0"] = model(
        [helper.make_node("BatchNormalization", ["x", "s", "b", "m", "v"], ["y"], spatial=0, name="bn1")],
        [vi("x", [1, 2, 3, 3])], [vi("y", [1, 2, 3, 3])], 7,
        [const(n, np.ones(2)) for n in ("s", "b", "m", "v")])
    c["layernorm_stash0"] = model(
        [helper.make_node("LayerNormalization", ["x", "s"], ["y"], stash_type=0, name="ln")],
        [vi("x", [2, 8])], [vi("y", [2, 8])], 17, [const("s", np.ones(8))])
    c["unknown_op"] = model([helper.make_node("Gelu2", ["x"], ["y"], name="g1", domain="")],
                            [vi("x", [4])], [vi("y", [4])], 13)
    c["custom_domain"] = model([helper.make_node("FusedThing", ["x"], ["y"], domain="com.example")],
                               [vi("x", [4])], [vi("y", [4])], 13)
    c["custom_domain"].opset_import.append(helper.make_opsetid("com.example", 1))
    c["int64_input"] = model([helper.make_node("Relu", ["x"], ["y"])],
                             [vi("x", [4], TensorProto.INT64)], [vi("y", [4], TensorProto.INT64)], 14)
    c["unsupported_op_in_domain_onnx"] = model([helper.make_node("Resize", ["x", "", "sc"], ["y"])],
                                               [vi("x", [1, 1, 2, 2])], [vi("y", [1, 1, 4, 4])], 13,
                                               [const("sc", [1, 1, 2, 2])])
    c["opset18"] = model([helper.make_node("Relu", ["x"], ["y"])], [vi("x", [4])], [vi("y", [4])], 18)
    # Two nodes with one name: the second is renamed.
    c["duplicate_names"] = model([helper.make_node("Relu", ["x"], ["a"], name="r"),
                                  helper.make_node("Relu", ["a"], ["b"], name="r"),
                                  helper.make_node("Relu", ["b"], ["c"], name="Relu_3"),
                                  helper.make_node("Relu", ["c"], ["y"])],
                                 [vi("x", [4])], [vi("y", [4])], 13)
    # External data: the file exists so ONNX's checker passes and the loader's own refusal shows.
    ext = const("W", np.ones((3, 2, 1, 1)))
    ext.ClearField("raw_data")
    ext.data_location = TensorProto.EXTERNAL
    for k, v in (("location", "weights.bin"), ("offset", "0"), ("length", "24")):
        e = ext.external_data.add()
        e.key, e.value = k, v
    c["external_data"] = model([helper.make_node("Conv", ["x", "W"], ["y"])],
                               [vi("x", [1, 2, 4, 4])], [vi("y", [1, 3, 4, 4])], 13, [ext])
    return c


def main():
    outdir = sys.argv[1]
    os.makedirs(outdir, exist_ok=True)
    with open(os.path.join(outdir, "weights.bin"), "wb") as f:
        f.write(np.ones(6, dtype=np.float32).tobytes())
    for name, m in list(cases().items()) + list(sweep_cases().items()):
        write(outdir, name, m)
    # Tensors for read_tensor_pb: raw_data, float_data, int64 shape, f64 (refused).
    x = (np.arange(24, dtype=np.float32).reshape(2, 3, 4) * 0.37 - 5.0).astype(np.float32)
    with open(os.path.join(outdir, "tensor_raw.pb"), "wb") as f:
        f.write(numpy_helper.from_array(x, "x").SerializeToString())
    t = helper.make_tensor("x", F, x.shape, x.flatten().tolist())  # float_data
    with open(os.path.join(outdir, "tensor_float_data.pb"), "wb") as f:
        f.write(t.SerializeToString())
    with open(os.path.join(outdir, "tensor_int64.pb"), "wb") as f:
        f.write(numpy_helper.from_array(np.array([1, -1, 7], dtype=np.int64), "s").SerializeToString())
    with open(os.path.join(outdir, "tensor_f64.pb"), "wb") as f:
        f.write(numpy_helper.from_array(np.ones(3, dtype=np.float64), "d").SerializeToString())


# ---- the opset sweep: one op at every version of it up to 17 ------------------------------------
# Each op is written once per version in that version's own form (attributes or inputs, legacy
# attributes where a version requires them); loaded, every version must give the same node as
# the newest. Files: sweep_<Op>_<version>.onnx.

def sweep_cases():
    x23 = [vi("x", [2, 3])], [vi("y", [2, 3])]
    out = {}

    def add(op, ver, nodes, io, inits=()):
        out["sweep_%s_%d" % (op, ver)] = model(nodes, io[0], io[1], ver, inits)

    def legacy(ver, extra):
        return extra if ver < 7 else {}

    for op, versions, attrs in (("Relu", (1, 6, 13, 14), {}), ("Sigmoid", (1, 6, 13), {}), ("Tanh", (1, 6, 13), {}),
                                ("Sqrt", (1, 6, 13), {}), ("Exp", (1, 6, 13), {}), ("Log", (1, 6, 13), {}),
                                ("Abs", (1, 6, 13), {}), ("LeakyRelu", (1, 6, 16), {"alpha": 0.1}),
                                ("Elu", (1, 6), {"alpha": 0.5}), ("HardSigmoid", (1, 6), {"alpha": 0.3, "beta": 0.4}),
                                ("Softplus", (1,), {}), ("Erf", (9, 13), {}), ("HardSwish", (14,), {}),
                                ("Identity", (1, 13, 14, 16), {}), ("Softmax", (1, 11, 13), {"axis": 1}),
                                ("Flatten", (1, 9, 11, 13), {"axis": 1})):
        for v in versions:
            io = x23 if op != "Flatten" else ([vi("x", [2, 3])], [vi("y", [2, 3])])
            add(op, v, [helper.make_node(op, ["x"], ["y"], **attrs)], io)
    for op, versions in (("Add", (1, 6, 7, 13, 14)), ("Sub", (1, 6, 7, 13, 14)), ("Mul", (1, 6, 7, 13, 14)),
                         ("Div", (1, 6, 7, 13, 14)), ("Pow", (1, 7, 12, 13, 15))):
        for v in versions:
            add(op, v, [helper.make_node(op, ["x", "b"], ["y"], **legacy(v, {"broadcast": 1}))],
                ([vi("x", [2, 3, 4])], [vi("y", [2, 3, 4])]), [const("b", np.full(4, 2.0))])
    for v in (1, 6, 7, 9, 11, 13):
        add("Gemm", v, [helper.make_node("Gemm", ["a", "b", "c"], ["y"], alpha=0.5, beta=2.0, transB=1,
                                         **legacy(v, {"broadcast": 1}))],
            ([vi("a", [3, 5]), vi("b", [4, 5])], [vi("y", [3, 4])]), [const("c", np.ones(4))])
    for v in (1, 9, 13):
        add("MatMul", v, [helper.make_node("MatMul", ["a", "b"], ["y"])],
            ([vi("a", [3, 5]), vi("b", [5, 4])], [vi("y", [3, 4])]))
    for v in (1, 6, 11, 12, 13):
        if v < 11:
            add("Clip", v, [helper.make_node("Clip", ["x"], ["y"], min=0.0, max=6.0)], x23)
        else:
            add("Clip", v, [helper.make_node("Clip", ["x", "lo", "hi"], ["y"])], x23,
                [const("lo", 0.0), const("hi", 6.0)])
    for v in (1, 6, 7, 9, 14, 15):
        extra = {}
        if v == 1:
            extra["consumed_inputs"] = [0, 0, 0, 1, 1]
        if v < 7:
            extra["is_test"] = 1
        add("BatchNormalization", v,
            [helper.make_node("BatchNormalization", ["x", "s", "b", "m", "var"], ["y"], epsilon=1e-3, **extra)],
            ([vi("x", [1, 2, 3, 3])], [vi("y", [1, 2, 3, 3])]), [const(n, np.ones(2)) for n in ("s", "b", "m", "var")])
    for v in (1, 5, 13, 14):
        io = ([vi("x", [2, 3, 4])], [vi("y", [6, 4])])
        if v < 5:
            add("Reshape", v, [helper.make_node("Reshape", ["x"], ["y"], shape=[6, 4])], io)
        else:
            add("Reshape", v, [helper.make_node("Reshape", ["x", "s"], ["y"])], io, [const("s", [6, 4], np.int64)])
    for op, dims_in, dims_out in (("Squeeze", [1, 3, 2], [3, 2]), ("Unsqueeze", [3, 2], [1, 3, 2])):
        for v in (1, 11, 13):
            io = ([vi("x", dims_in)], [vi("y", dims_out)])
            if v < 13:
                add(op, v, [helper.make_node(op, ["x"], ["y"], axes=[0])], io)
            else:
                add(op, v, [helper.make_node(op, ["x", "a"], ["y"])], io, [const("a", [0], np.int64)])
    for v in (8, 13):
        add("Expand", v, [helper.make_node("Expand", ["x", "s"], ["y"])],
            ([vi("x", [3, 1])], [vi("y", [2, 3, 4])]), [const("s", [2, 1, 4], np.int64)])
    for v in (1, 13):
        add("Transpose", v, [helper.make_node("Transpose", ["x"], ["y"], perm=[1, 0])],
            ([vi("x", [2, 3])], [vi("y", [3, 2])]))
    pool_io = ([vi("x", [1, 2, 6, 6])], [vi("y", [1, 2, 3, 3])])
    for op, versions in (("MaxPool", (1, 8, 10, 11, 12)), ("AveragePool", (1, 7, 10, 11))):
        for v in versions:
            add(op, v, [helper.make_node(op, ["x"], ["y"], kernel_shape=[2, 2], strides=[2, 2], auto_pad="VALID")],
                pool_io)
    add("GlobalAveragePool", 1, [helper.make_node("GlobalAveragePool", ["x"], ["y"])],
        ([vi("x", [1, 2, 6, 6])], [vi("y", [1, 2, 1, 1])]))
    for v in (1, 11):
        add("Conv", v, [helper.make_node("Conv", ["x", "W"], ["y"], auto_pad="SAME_UPPER", strides=[2, 2])],
            ([vi("x", [1, 2, 6, 6])], [vi("y", [1, 3, 3, 3])]), [const("W", np.ones((3, 2, 3, 3)))])
    for v in (1, 4, 11, 13):
        add("Concat", v, [helper.make_node("Concat", ["x", "x"], ["y"], axis=1)], ([vi("x", [2, 3])], [vi("y", [2, 6])]))
    add("LayerNormalization", 17, [helper.make_node("LayerNormalization", ["x", "s"], ["y"])], x23,
        [const("s", np.ones(3))])
    for v in (1, 9, 11, 12, 13):
        add("Constant", v, [helper.make_node("Constant", [], ["k"], value=const("v", [1.0, 2.0, 3.0])),
                            helper.make_node("Add", ["x", "k"], ["y"], **legacy(v, {"broadcast": 1}))], x23)
    # The quantized ops: per-tensor parameters (opset 10 has no axis; 13 writes it, default 1).
    U8, I8, I32 = TensorProto.UINT8, TensorProto.INT8, TensorProto.INT32
    for op in ("QuantizeLinear", "DequantizeLinear"):
        for v in (10, 13):
            q = op == "QuantizeLinear"
            add(op, v, [helper.make_node(op, ["x", "s", "z"], ["y"])],
                ([vi("x", [2, 3], F if q else U8)], [vi("y", [2, 3], U8 if q else F)]),
                [const("s", 0.5), const("z", 3, np.uint8)])
    add("QLinearConv", 10, [helper.make_node("QLinearConv", ["x", "xs", "xz", "w", "ws", "wz", "ys", "yz", "b"], ["y"],
                                             pads=[1, 1, 1, 1])],
        ([vi("x", [1, 2, 4, 4], U8)], [vi("y", [1, 3, 4, 4], U8)]),
        [const("xs", 0.1), const("xz", 128, np.uint8), const("w", np.ones((3, 2, 3, 3)), np.int8),
         const("ws", [0.01, 0.02, 0.03]), const("wz", [0, 0, 0], np.int8), const("ys", 0.2),
         const("yz", 5, np.uint8), const("b", [1, 2, 3], np.int32)])
    add("ConvInteger", 10, [helper.make_node("ConvInteger", ["x", "w", "xz"], ["y"])],
        ([vi("x", [1, 2, 4, 4], U8)], [vi("y", [1, 3, 2, 2], I32)]),
        [const("w", np.ones((3, 2, 3, 3)), np.int8), const("xz", 128, np.uint8)])
    add("QLinearMatMul", 10, [helper.make_node("QLinearMatMul", ["a", "as", "az", "b", "bs", "bz", "ys", "yz"], ["y"])],
        ([vi("a", [2, 4], U8)], [vi("y", [2, 3], I8)]),
        [const("as", 0.1), const("az", 128, np.uint8), const("b", np.ones((4, 3)), np.int8), const("bs", 0.5),
         const("bz", 0, np.int8), const("ys", 0.2), const("yz", 0, np.int8)])
    add("MatMulInteger", 10, [helper.make_node("MatMulInteger", ["a", "b"], ["y"])],
        ([vi("a", [2, 4], I8)], [vi("y", [2, 3], I32)]), [const("b", np.ones((4, 3)), np.int8)])
    return out


if __name__ == "__main__":
    main()
