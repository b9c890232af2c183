#!/usr/bin/python3
"""Malformed quantizations for the hostile-model test (tests/onnx_qdq_hostile.sh): each
QuantizeLinear, DequantizeLinear, QLinearConv and QLinearMatMul of the quantized test models
(quantized_models.py's QDQ convolution, fuser patterns and QLinear ops) gets, one at a time, a
scale of 0, NaN or infinity, a zero point of another type, an axis out of range, and a per-axis
scale or zero point one entry too long. Each mutant goes to OUTDIR/NAME.onnx, NAME saying what
was changed where; prim must refuse it naming the node (or run it when it is still valid), never
crash.

Usage: /usr/bin/python3 scripts/models/qdq_mutations.py MODELDIR OUTDIR
"""
import copy
import os
import sys

import numpy as np
from onnx import TensorProto, helper, load, numpy_helper, save

BASES = ["qdq_conv", "qdq_conv_clip", "fuse_residual", "fuse_pool_gemm", "fuse_matmul_sigmoid", "qlinear_conv_s8",
         "qlinear_matmul", "round_trip_axis1_u8_zps"]
# Per op: the indices of its (scale, zero point) input pairs.
PAIRS = {"QuantizeLinear": [(1, 2)], "DequantizeLinear": [(1, 2)], "QLinearConv": [(1, 2), (4, 5), (6, 7)],
         "QLinearMatMul": [(1, 2), (4, 5), (6, 7)]}


def replace_init(m, name, array):
    inits = m.graph.initializer
    k = next(i for i, t in enumerate(inits) if t.name == name)
    inits[k].CopyFrom(numpy_helper.from_array(array, name))


def mutants(m):
    inits = {t.name: t for t in m.graph.initializer}
    for ni, node in enumerate(m.graph.node):
        for si, zi in PAIRS.get(node.op_type, []):
            s = node.input[si] if si < len(node.input) else ""
            z = node.input[zi] if zi < len(node.input) else ""
            if s not in inits:
                continue
            scale = numpy_helper.to_array(inits[s])
            tag = "%d%s_in%d" % (ni, node.op_type, si)
            for what, v in (("scale0", 0.0), ("scalenan", np.nan), ("scaleinf", np.inf)):
                c = copy.deepcopy(m)
                bad = scale.copy()
                bad.flat[-1] = v
                replace_init(c, s, bad)
                yield tag + "_" + what, c
            c = copy.deepcopy(m)
            replace_init(c, s, np.append(scale.reshape(-1), scale.reshape(-1)[:1]).astype(np.float32))
            yield tag + "_scalelonger", c
            if z in inits:
                zp = numpy_helper.to_array(inits[z])
                for other in (np.int8, np.uint8, np.int32):
                    if zp.dtype != other:
                        c = copy.deepcopy(m)
                        replace_init(c, z, zp.astype(other))
                        yield tag + "_zp" + np.dtype(other).name, c
                c = copy.deepcopy(m)
                replace_init(c, z, np.append(zp.reshape(-1), zp.reshape(-1)[:1]).astype(zp.dtype))
                yield tag + "_zplonger", c
        if node.op_type in ("QuantizeLinear", "DequantizeLinear"):
            for axis in (7, -9):
                c = copy.deepcopy(m)
                n = c.graph.node[ni]
                del n.attribute[:]
                n.attribute.extend([helper.make_attribute("axis", axis)])
                yield "%d%s_axis%d" % (ni, node.op_type, axis), c


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    src, out = sys.argv[1:]
    os.makedirs(out, exist_ok=True)
    count = 0
    for base in BASES:
        for name, m in mutants(load(os.path.join(src, base + ".onnx"))):
            save(m, os.path.join(out, base + "__" + name + ".onnx"))
            count += 1
    print("wrote %d mutants" % count)


if __name__ == "__main__":
    main()
