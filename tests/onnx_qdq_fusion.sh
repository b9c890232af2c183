#!/usr/bin/env bash
# The QDQ fuser's patterns (scripts/models/quantized_models.py's fuse_* models) through
# benchdnn_lite --onnx: fused against unfused (the QDQ graph op by op, the oracle) within CONTRACT
# §6's tolerance, and the fusion log (PRIM_VERBOSE=2) holding the line each model is about.
# Prints "onnx_qdq_fusion: OK" when all passed.
#   onnx_qdq_fusion.sh BENCHDNN_LITE SOURCE_DIR
set -euo pipefail
bdl=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
/usr/bin/python3 "$src/scripts/models/quantized_models.py" "$tmp" >/dev/null
status=0
check() { # MODEL EXPECTED_LOG_TEXT
  out=$(PRIM_VERBOSE=2 "$bdl" --onnx --fused=both "$tmp/$1.onnx" 2>&1) || { echo "$1: FAILED"; echo "$out" | grep -v '^prim_verbose,exec'; status=1; return; }
  if grep -qF -- "$2" <<< "$out"; then echo "$1: passed, logged: $2"
  else echo "$1: the log lacks: $2"; echo "$out" | grep '^prim_verbose,\(fuse\|info\)'; status=1; fi
}
check fuse_residual "fuse,fused,DequantizeLinear+Conv+QuantizeLinear(int8)+Add(int8 sum)+Relu(requantized)"
check fuse_residual "the rounding of its output to QuantizeLinear_10's quantized type is skipped"
check fuse_residual_late_reader "the other operand (xq_q) is read after Conv_9: its buffer cannot take the sum (the Add runs in f32)"
check fuse_residual_zp "fuse,fused,DequantizeLinear+Conv+QuantizeLinear(int8)+Add(int8 sum)+Relu(requantized)"
check fuse_pool_gemm "fused,DequantizeLinear+MaxPool+QuantizeLinear(u8)"
check fuse_pool_gemm "fused,DequantizeLinear+GlobalAveragePool+QuantizeLinear(u8)"
check fuse_pool_gemm "fused,DequantizeLinear+Flatten+QuantizeLinear(u8)"
check fuse_pool_gemm "fused,DequantizeLinear+Gemm(int8 to f32)"
check fuse_pool_other_params "its QuantizeLinear QuantizeLinear_3 has other parameters than its DequantizeLinear DequantizeLinear_1 (it runs in f32 between them)"
check fuse_matmul_sigmoid "fused,DequantizeLinear+MatMul+Add(bias)+QuantizeLinear(int8)"
check fuse_matmul_sigmoid "Sigmoid runs in f32 between DequantizeLinear and QuantizeLinear"
[ $status = 0 ] && echo "onnx_qdq_fusion: OK"
exit $status
