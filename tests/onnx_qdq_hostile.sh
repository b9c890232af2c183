#!/usr/bin/env bash
# Malformed quantization (scripts/models/qdq_mutations.py: scales of 0, NaN and infinity, zero
# points of another type, axes out of range, per-axis scales and zero points of the wrong length,
# in every Q, DQ, QLinearConv and QLinearMatMul of the quantized test models) through
# benchdnn_lite --onnx, fused and unfused: each mutant must be refused with a message naming a
# node, or run with fused and unfused agreeing; a crash, a refusal naming no node, or a
# disagreement fails.
# Prints "onnx_qdq_hostile: OK" when all passed.
#   onnx_qdq_hostile.sh BENCHDNN_LITE SOURCE_DIR
set -uo pipefail
bdl=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
/usr/bin/python3 "$src/scripts/models/quantized_models.py" "$tmp/base" >/dev/null || exit 1
/usr/bin/python3 "$src/scripts/models/qdq_mutations.py" "$tmp/base" "$tmp/mut" >/dev/null || exit 1
status=0 refused=0 ran=0
for f in "$tmp"/mut/*.onnx; do
  out=$("$bdl" --onnx --fused=both "$f" 2>&1)
  rc=$?
  name=$(basename "$f" .onnx)
  if [ $rc -ge 128 ]; then
    echo "$name: crashed (exit $rc)"; status=1
  # Here-strings, not pipes: under pipefail, grep -q leaving early fails the echo (SIGPIPE).
  elif grep -q '^0:PASSED' <<< "$out"; then
    ran=$((ran + 1))
  elif grep -qE "^0:(INVALID_ARGUMENTS|UNIMPLEMENTED) \((load|compile|inputs|run): (node '[^']+' \(|[A-Za-z0-9_+]+ \()" <<< "$out"; then
    refused=$((refused + 1))
  else
    echo "$name: neither refused naming a node nor passed:"; echo "$out" | head -3; status=1
  fi
done
echo "mutants: $refused refused naming a node, $ran ran (fused and unfused agree)"
[ $status = 0 ] && echo "onnx_qdq_hostile: OK"
exit $status
