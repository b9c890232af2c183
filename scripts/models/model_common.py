"""Shared by the model writers of scripts/models (run with Debian's /usr/bin/python3 and
python3-onnx): the command line (--batch, --data), seeded weights scaled so activations stay O(1),
and the test_data_set_0 writer in ONNX's test-data layout (input_0.pb, a TensorProto)."""
import argparse
import os

import numpy as np
from onnx import TensorProto, checker, helper, numpy_helper, save


def parse_args(description, default_out):
    p = argparse.ArgumentParser(description=description)
    p.add_argument("-o", "--output", default=default_out, help="the .onnx file to write")
    p.add_argument("--batch", default="N",
                   help="the batch dim: a number (fixed) or a name (symbolic, the default 'N')")
    p.add_argument("--data", metavar="DIR",
                   help="also write DIR/test_data_set_0/input_0.pb (a seeded input; outputs come from "
                        "an independent engine: scripts/ort/run_model.js)")
    p.add_argument("--data-batch", type=int, default=1, help="the batch of the test input when --batch is symbolic")
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args()
    a.batch = int(a.batch) if a.batch.isdigit() else a.batch
    return a


class graph_builder:
    """Nodes, initializers and unique names; weights from one seeded generator."""

    def __init__(self, seed):
        self.rng = np.random.default_rng(seed)
        self.nodes, self.inits = [], []
        self.count = {}

    def name(self, prefix):
        k = self.count.get(prefix, 0)
        self.count[prefix] = k + 1
        return "%s_%d" % (prefix, k)

    def init(self, prefix, array, dtype=np.float32):
        n = self.name(prefix)
        self.inits.append(numpy_helper.from_array(np.asarray(array, dtype=dtype), n))
        return n

    def node(self, op, inputs, name=None, output=None, **attrs):
        n = name or self.name(op.lower())
        out = output or n + "_out"
        self.nodes.append(helper.make_node(op, inputs, [out], name=n, **attrs))
        return out

    def he(self, shape, fan_in, gain=2.0):
        """Normal weights with variance gain/fan_in: a relu layer keeps its input's scale."""
        return self.rng.standard_normal(shape).astype(np.float32) * np.float32(np.sqrt(gain / fan_in))

    def uniform(self, lo, hi, shape):
        return self.rng.uniform(lo, hi, shape).astype(np.float32)


def finish(b, inputs, outputs, opset, name, args):
    g = helper.make_graph(b.nodes, name, inputs, outputs, initializer=b.inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)], producer_name="prim scripts/models")
    checker.check_model(m)
    os.makedirs(os.path.dirname(os.path.abspath(args.output)), exist_ok=True)
    save(m, args.output)
    print("wrote %s: %d nodes, %d initializers, opset %d" % (args.output, len(b.nodes), len(b.inits), opset))


def write_test_input(args, shape, rng_seed, scale=1.0):
    """DIR/test_data_set_0/input_0.pb with the batch fixed (args.batch, or --data-batch)."""
    if not args.data:
        return
    batch = args.batch if isinstance(args.batch, int) else args.data_batch
    dims = [batch] + list(shape[1:])
    x = (np.random.default_rng(rng_seed).standard_normal(dims) * scale).astype(np.float32)
    d = os.path.join(args.data, "test_data_set_0")
    os.makedirs(d, exist_ok=True)
    t = numpy_helper.from_array(x, "input_0")
    with open(os.path.join(d, "input_0.pb"), "wb") as f:
        f.write(t.SerializeToString())
    print("wrote %s/input_0.pb: dims %s" % (d, dims))


def value_info(name, dims):
    return helper.make_tensor_value_info(name, TensorProto.FLOAT, dims)
