#!/usr/bin/python3
"""Small models for the graph fuser's dw pairs (src/graph/fuse_dw_pairs.cpp, tests/onnx_dw_fusion.sh),
written into OUTDIR as NAME.onnx with a seeded NAME/test_data_set_0/input_0.pb each (outputs come
from ONNX Runtime, scripts/ort/run_model.js):
  dw_pairs             inverted-residual blocks (1x1 + BatchNormalization + Clip, depthwise
                       + BatchNormalization + Clip, 1x1 projection): 3x3 stride 1 with the residual
                       Add, 3x3 stride 2, 5x5 stride 2: all three pairs fuse
  dw_odd               a stride-2 pair on an odd 21x21 (ONNX's end padding is used): fuses
  dw_two_consumers     the 1x1's output also read by a GlobalAveragePool (a second output)
  dw_3x3_first         a 3x3 convolution before the depthwise
  dw_strided_1x1       a 1x1 convolution of stride 2 before the depthwise
  dw_start_padding     a depthwise padded at the start only (pads 1,1,0,0): one output fewer than
                       ceil(i / stride), which the dw post-op cannot express

Usage: /usr/bin/python3 scripts/models/dw_pair_models.py OUTDIR
"""
import os
import sys

import numpy as np
from onnx import TensorProto, checker, helper, numpy_helper, save


class writer:
    def __init__(self, seed):
        self.rng = np.random.default_rng(seed)
        self.nodes, self.inits = [], []
        self.k = 0

    def init(self, array):
        name = "c%d" % len(self.inits)
        self.inits.append(numpy_helper.from_array(np.asarray(array, dtype=np.float32), name))
        return name

    def node(self, op, inputs, **attrs):
        name = "%s_%d" % (op.lower(), self.k)
        self.k += 1
        self.nodes.append(helper.make_node(op, inputs, [name + "_out"], name=name, **attrs))
        return name + "_out"

    def conv(self, x, cin, cout, k, stride=1, group=1, pads=None, bn=True, clip=True):
        w = self.rng.standard_normal((cout, cin // group, k, k)).astype(np.float32) * np.sqrt(2.0 / (cin // group * k * k))
        b = self.rng.uniform(-0.1, 0.1, cout)
        y = self.node("Conv", [x, self.init(w), self.init(b)], kernel_shape=[k, k], strides=[stride, stride],
                      pads=pads if pads is not None else [k // 2] * 4, group=group)
        if bn:
            y = self.node("BatchNormalization", [y, self.init(self.rng.uniform(0.5, 1.5, cout)),
                                                 self.init(self.rng.uniform(-0.2, 0.2, cout)),
                                                 self.init(self.rng.uniform(-0.2, 0.2, cout)),
                                                 self.init(self.rng.uniform(0.5, 2.0, cout))], epsilon=1e-5)
        if clip:
            y = self.node("Clip", [y, self.init(np.float32(0)), self.init(np.float32(6))])
        return y

    def save(self, outdir, name, inputs, outputs):
        g = helper.make_graph(self.nodes, name, [helper.make_tensor_value_info(n, TensorProto.FLOAT, d) for n, d in inputs],
                              [helper.make_tensor_value_info(n, TensorProto.FLOAT, d) for n, d in outputs],
                              initializer=self.inits)
        m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)], producer_name="prim scripts/models")
        checker.check_model(m)
        save(m, os.path.join(outdir, name + ".onnx"))
        for k, (n, d) in enumerate(inputs):
            data = os.path.join(outdir, name, "test_data_set_0")
            os.makedirs(data, exist_ok=True)
            x = np.random.default_rng(100 + k).standard_normal(d).astype(np.float32)
            with open(os.path.join(data, "input_%d.pb" % k), "wb") as f:
                f.write(numpy_helper.from_array(x, "input_%d" % k).SerializeToString())


def dw_pairs(outdir):
    w = writer(1)
    y = w.conv("x", 16, 96, 1)
    y = w.conv(y, 96, 96, 3, group=96)
    y = w.conv(y, 96, 16, 1, clip=False)
    y = w.node("Add", ["x", y])
    y = w.conv(y, 16, 64, 1)
    y = w.conv(y, 64, 64, 3, stride=2, group=64)   # 20x20 -> 10x10
    y = w.conv(y, 64, 24, 1, clip=False)
    y = w.conv(y, 24, 48, 1)
    y = w.conv(y, 48, 48, 5, stride=2, group=48)   # 10x10 -> 5x5, kernel 5
    w.nodes[-1].output[0] = "y"
    w.save(outdir, "dw_pairs", [("x", [1, 16, 20, 20])], [("y", [1, 48, 5, 5])])


def odd_pair(outdir):
    # A stride-2 pair on an odd size (21 -> 11: the end padding ONNX gives is used).
    w = writer(2)
    y = w.conv("x", 8, 32, 1)
    y = w.conv(y, 32, 32, 3, stride=2, group=32)
    w.nodes[-1].output[0] = "y"
    w.save(outdir, "dw_odd", [("x", [1, 8, 21, 21])], [("y", [1, 32, 11, 11])])


def refused(outdir, name, first, out_hw, dw_pads=None, second_reader=False):
    w = writer(3)
    y = first(w)
    w.conv(w.conv(y, 48, 48, 3, group=48, pads=dw_pads), 48, 8, 1, clip=False)
    w.nodes[-1].output[0] = "y"
    outputs = [("y", [1, 8, out_hw, out_hw])]
    if second_reader:
        w.node("GlobalAveragePool", [y])
        w.nodes[-1].output[0] = "z"
        outputs.append(("z", [1, 48, 1, 1]))
    w.save(outdir, name, [("x", [1, 8, 12, 12])], outputs)


def main():
    outdir = sys.argv[1]
    os.makedirs(outdir, exist_ok=True)
    dw_pairs(outdir)
    odd_pair(outdir)
    refused(outdir, "dw_two_consumers", lambda w: w.conv("x", 8, 48, 1), 12, second_reader=True)
    refused(outdir, "dw_3x3_first", lambda w: w.conv("x", 8, 48, 3), 12)
    refused(outdir, "dw_strided_1x1", lambda w: w.conv("x", 8, 48, 1, stride=2), 6)
    refused(outdir, "dw_start_padding", lambda w: w.conv("x", 8, 48, 1), 11, dw_pads=[1, 1, 0, 0])


if __name__ == "__main__":
    main()
