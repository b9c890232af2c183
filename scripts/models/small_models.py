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
                                  helper.make_node("Relu", ["a"], ["y"], name="r")],
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
    for name, m in cases().items():
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


if __name__ == "__main__":
    main()
