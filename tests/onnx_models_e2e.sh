#!/usr/bin/env bash
# benchdnn_lite --onnx on real models written at test time (scripts/models: ResNet-50 v1.5,
# MobileNet v2 and a BERT-base encoder layer (seq 128), mb1, seeded random weights), fused and
# unfused, against ONNX Runtime's outputs
# (scripts/ort, npm's onnxruntime-node, a test-time competitor: installed here with
# --ignore-scripts when npm can reach its registry). Without ONNX Runtime the fused run is
# compared with the unfused one. Each model runs on the ISA PRIM_MAX_CPU_ISA names (its ctest
# entries set it through prim_isa_gate, one entry per ISA), or on AVX-512 and on AVX2 when it is
# not set. Prints "onnx_models_e2e: OK" when every model passed.
#   onnx_models_e2e.sh BENCHDNN_LITE SOURCE_DIR
set -euo pipefail
bdl=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ort="$src/scripts/ort"
if [ ! -d "$ort/node_modules/onnxruntime-node" ] && command -v npm >/dev/null; then
  (cd "$ort" && timeout 300 npm install --ignore-scripts --no-audit --no-fund >/dev/null 2>&1) || true
fi
source "$src/tests/ort_installed.sh"
status=0
for model in resnet50 mobilenet_v2 bert_encoder; do
  /usr/bin/python3 "$src/scripts/models/$model.py" -o "$tmp/$model.onnx" --batch 1 --data "$tmp/$model" >/dev/null
  data="$tmp/$model/test_data_set_0"
  [ $have_ort = 1 ] && node "$ort/run_model.js" "$tmp/$model.onnx" "$data" >/dev/null 2>&1
  for isa in ${PRIM_MAX_CPU_ISA:-avx512 avx2}; do
    if [ $have_ort = 1 ]; then
      echo "$model, PRIM_MAX_CPU_ISA=$isa: against ONNX Runtime's output"
      PRIM_MAX_CPU_ISA=$isa "$bdl" --onnx --fused=both --data="$data" "$tmp/$model.onnx" || status=1
    else
      echo "$model, PRIM_MAX_CPU_ISA=$isa: ONNX Runtime is not installed; fused against unfused"
      PRIM_MAX_CPU_ISA=$isa "$bdl" --onnx "$tmp/$model.onnx" || status=1
    fi
  done
done
[ $status = 0 ] && echo "onnx_models_e2e: OK"
exit $status
