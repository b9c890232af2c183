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
run() { # MODEL: fused against unfused, the log in $out
  out=$(PRIM_VERBOSE=2 "$bdl" --onnx --fused=both "$tmp/$1.onnx" 2>&1) && return 0
  echo "$1: FAILED"; echo "$out" | grep -v '^prim_verbose,exec'; status=1; return 1
}
check() { # MODEL EXPECTED_LOG_TEXT
  run "$1" || return 0
  if grep -qF -- "$2" <<< "$out"; then echo "$1: passed, logged: $2"
  else echo "$1: the log lacks: $2"; echo "$out" | grep '^prim_verbose,\(fuse\|info\)'; status=1; fi
}
check_absent() { # MODEL TEXT_THE_LOG_MUST_NOT_HOLD (a fusion that must not happen)
  run "$1" || return 0
  if grep -qF -- "$2" <<< "$out"; then echo "$1: the log holds: $2"; status=1
  else echo "$1: passed, not logged: $2"; fi
}
check qdq_conv_relu_sat "Relu_5 is QuantizeLinear_6's saturation: no chain entry"
check qdq_conv_clip6_sat "Clip_5 is QuantizeLinear_6's saturation: no chain entry"
check_absent qdq_conv "saturation: no chain entry"      # zero point 10: the Relu clips at 0
check_absent qdq_conv_clip "saturation: no chain entry" # Clip(0, 0.5) inside the u8 range
check fuse_residual "fuse,fused,DequantizeLinear+Conv+QuantizeLinear(int8)+Add(int8 sum)+Relu(requantized)"
check fuse_residual "the rounding of its output to QuantizeLinear_10's quantized type is skipped"
check fuse_residual_late_reader "the other operand (xq_q) is read after Conv_9: its buffer cannot take the sum (the Add runs in f32)"
check fuse_residual_zp "fuse,fused,DequantizeLinear+Conv+QuantizeLinear(int8)+Add(int8 sum)+Relu(requantized)"
check fuse_pool_gemm "fused,DequantizeLinear+MaxPool+QuantizeLinear(u8)"
check fuse_pool_gemm "fused,DequantizeLinear+GlobalAveragePool+QuantizeLinear(u8)"
check fuse_pool_gemm "fused,DequantizeLinear+Flatten+QuantizeLinear(u8)"
check fuse_pool_gemm "fused,DequantizeLinear+Gemm(int8 to f32)"
check fuse_pool_other_params "its QuantizeLinear QuantizeLinear_3 has other parameters than its DequantizeLinear DequantizeLinear_1 (it runs in f32 between them)"
check fuse_matmul_sigmoid "fused,DequantizeLinear+MatMul+Add(bias)+QuantizeLinear(int8)+Sigmoid(requantized)"
check fuse_matmul_gelu "fused,DequantizeLinear+MatMul+Add(bias)+QuantizeLinear(int8)+gelu_erf(requantized),DequantizeLinear_1+MatMul_3+Add_4+QuantizeLinear_5+DequantizeLinear_6+Div_7+Erf_8+Add_9+Mul_10+Mul_11+QuantizeLinear_12"
check fuse_matmul_gelu_direct "fused,DequantizeLinear+MatMul+Add(bias)+gelu_erf+QuantizeLinear(int8)"
check_absent fuse_matmul_gelu_extra_reader "gelu_erf"
check fuse_matmul_gelu_output_read "fused,gelu_erf,Div_7+Erf_8+Add_9+Mul_10+Mul_11"
check_absent fuse_matmul_gelu_output_read "gelu_erf(requantized)"
check fuse_matmul_residual "fused,DequantizeLinear+MatMul+Add(bias)+QuantizeLinear(int8)+Add(int8 sum)"
check fuse_round_trip "fused,MatMul+QuantizeLinear+DequantizeLinear(f32 round trip)+Div(binary),MatMul_2+QuantizeLinear_3+DequantizeLinear_4+Div_5"
check fuse_round_trip "fused,Softmax+QuantizeLinear+DequantizeLinear(f32 round trip),Softmax_6+QuantizeLinear_7+DequantizeLinear_8"
check fuse_round_trip_integers_read "fused,Softmax+QuantizeLinear+DequantizeLinear(f32 round trip)"
check_absent fuse_round_trip_integers_read "fused,MatMul+QuantizeLinear"
[ $status = 0 ] && echo "onnx_qdq_fusion: OK"
exit $status
