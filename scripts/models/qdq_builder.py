"""The QDQ writer shared by scripts/models/qdq_models.py: builds a model the way
onnxruntime.quantization writes it (static QDQ format, opset 13) while it evaluates the float
model on seeded calibration inputs with numpy, so each activation's u8 parameters come from the
float values it takes (MinMax calibration, as onnxruntime's default calibrator):
  - activations u8, one scale and zero point per tensor: [min(0, lo), max(0, hi)] over 255 steps;
  - weights s8 initializers, symmetric per output channel (scale max|w| / 127, zero point 0),
    behind a DequantizeLinear along the output channel's axis;
  - biases int32 initializers (round(b / (x_scale * w_scale))) behind a DequantizeLinear with
    scale x_scale * w_scale along axis 0 and zero points 0;
  - ops that only move values (MaxPool, GlobalAveragePool, Flatten, Reshape, Transpose) reuse
    their input's parameters for the Q -> DQ after them.
Every method takes and returns tensor names; self.val holds each tensor's float value (the
calibration batch), the values of the float model (not the fake-quantized ones).
"""
import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from model_common import graph_builder


def u8_params(v):
    """onnxruntime's MinMax u8 parameters of the values v: (scale, zero point)."""
    lo, hi = min(0.0, float(v.min())), max(0.0, float(v.max()))
    if hi == lo:
        return 1.0, 0
    scale = (hi - lo) / 255.0
    return scale, int(np.clip(round(-lo / scale), 0, 255))


def s8_per_channel(w, axis):
    """Symmetric s8 weights along axis: (the s8 values, the scales)."""
    other = tuple(k for k in range(w.ndim) if k != axis)
    amax = np.abs(w).max(axis=other)
    scales = np.where(amax > 0, amax / 127.0, 1.0).astype(np.float32)
    shape = [1] * w.ndim
    shape[axis] = -1
    q = np.clip(np.round(w / scales.reshape(shape)), -127, 127).astype(np.int8)
    return q, scales


def conv2d(x, w, b, stride, pad, group):
    """numpy's NCHW convolution (cross-correlation, ONNX's Conv) with symmetric padding."""
    n, c, _, _ = x.shape
    oc, icg, kh, kw = w.shape
    xp = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    win = sliding_window_view(xp, (kh, kw), axis=(2, 3))[:, :, ::stride, ::stride]
    oh, ow = win.shape[2], win.shape[3]
    if group == 1:  # one BLAS product of the gathered windows (einsum would not use BLAS here)
        cols = win.transpose(0, 2, 3, 1, 4, 5).reshape(n * oh * ow, c * kh * kw)
        y = (cols @ w.reshape(oc, -1).T).reshape(n, oh, ow, oc).transpose(0, 3, 1, 2)
    else:
        win = win.reshape(n, group, icg, oh, ow, kh, kw)
        wg = w.reshape(group, oc // group, icg, kh, kw)
        y = np.einsum("ngchwij,gocij->ngohw", win, wg, optimize=True).reshape(n, oc, oh, ow)
    return (y + b.reshape(1, -1, 1, 1)).astype(np.float32)


class qdq_builder(graph_builder):
    def __init__(self, seed):
        super().__init__(seed)
        self.val = {}
        self.params = {}  # tensor -> (scale name, zero point name, scale) of its Q -> DQ

    def quantize(self, x, like=None):
        """Q -> DQ after x (u8, calibrated on x's values, or with the parameters of tensor like);
        returns the DQ's output."""
        if like is not None:
            s, z, scale = self.params[like]
        else:
            scale, zp = u8_params(self.val[x])
            s, z = self.init("act_scale", np.float32(scale)), self.init("act_zp", np.uint8(zp), np.uint8)
        q = self.node("QuantizeLinear", [x, s, z])
        y = self.node("DequantizeLinear", [q, s, z])
        self.val[y] = self.val[x]
        self.params[y] = (s, z, scale)
        return y

    def quantized_weights(self, w, axis):
        """DQ(s8 weights per channel along axis); returns (its output, the scales)."""
        q, scales = s8_per_channel(w, axis)
        names = [self.init("w_q", q, np.int8), self.init("w_scale", scales),
                 self.init("w_zp", np.zeros(len(scales)), np.int8)]
        return self.node("DequantizeLinear", names, axis=axis), scales

    def quantized_bias(self, b, x, w_scales):
        """DQ(int32 bias) with scale x_scale * w_scale per channel, zero points 0."""
        x_scale = self.params[x][2]
        sb = (np.float32(x_scale) * w_scales).astype(np.float32)
        q = np.round(b / sb).astype(np.int64).clip(-2**31, 2**31 - 1).astype(np.int32)
        names = [self.init("b_q", q, np.int32), self.init("b_scale", sb), self.init("b_zp", np.zeros(len(sb)), np.int32)]
        return self.node("DequantizeLinear", names, axis=0)

    # The ops. x is a DequantizeLinear's output (a quantized activation) unless said otherwise.

    def conv(self, x, w, b, stride=1, group=1, act=None, clip=(0.0, 6.0)):
        """Conv with folded weights w and bias b, [Relu | Clip] ('relu', 'clip'), then Q -> DQ."""
        k = w.shape[2]
        wd, ws = self.quantized_weights(w, 0)
        y = self.node("Conv", [x, wd, self.quantized_bias(b, x, ws)], kernel_shape=[k, k], strides=[stride, stride],
                      pads=[k // 2] * 4, group=group)
        self.val[y] = conv2d(self.val[x], w, b, stride, k // 2, group)
        if act == "relu":
            y = self.relu(y)
        elif act == "clip":
            lo, hi = self.init("clip_min", np.float32(clip[0])), self.init("clip_max", np.float32(clip[1]))
            v = np.clip(self.val[y], clip[0], clip[1])
            y = self.node("Clip", [y, lo, hi])
            self.val[y] = v
        return self.quantize(y)

    def relu(self, x):
        y = self.node("Relu", [x])
        self.val[y] = np.maximum(self.val[x], 0)
        return y

    def add(self, a, b):
        y = self.node("Add", [a, b])
        self.val[y] = self.val[a] + self.val[b]
        return self.quantize(y)

    def maxpool(self, x, k, stride, pad):
        y = self.node("MaxPool", [x], kernel_shape=[k, k], strides=[stride, stride], pads=[pad] * 4)
        xp = np.pad(self.val[x], ((0, 0), (0, 0), (pad, pad), (pad, pad)), constant_values=-np.inf)
        self.val[y] = sliding_window_view(xp, (k, k), axis=(2, 3))[:, :, ::stride, ::stride].max(axis=(4, 5))
        return self.quantize(y, like=x)

    def global_avg_pool_flatten(self, x):
        y = self.node("GlobalAveragePool", [x])
        self.val[y] = self.val[x].mean(axis=(2, 3), keepdims=True)
        y = self.quantize(y, like=x)
        f = self.node("Flatten", [y], axis=1)
        self.val[f] = self.val[y].reshape(self.val[y].shape[0], -1)
        return self.quantize(f, like=y)

    def gemm(self, x, w, b, output):
        """The final Gemm (transB) in int8 with f32 output: no Q after it."""
        wd, ws = self.quantized_weights(w, 0)
        self.node("Gemm", [x, wd, self.quantized_bias(b, x, ws)], name="fc", output=output, transB=1)

    def matmul(self, x, w, bias=None):
        """MatMul(x, DQ(w (K, N) s8 per column)) [+ f32 bias], then Q -> DQ."""
        wd, _ = self.quantized_weights(w, 1)
        y = self.node("MatMul", [x, wd])
        self.val[y] = self.val[x] @ w
        if bias is not None:
            bn = self.init("B", bias)
            v = self.val[y] + bias
            y = self.node("Add", [y, bn])
            self.val[y] = v
        return self.quantize(y)

    def float_op(self, op, inputs, value, **attrs):
        """An op run in f32 (its value given), no Q -> DQ after it."""
        y = self.node(op, inputs, **attrs)
        self.val[y] = value.astype(np.float32)
        return y
