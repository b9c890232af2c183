#!/usr/bin/env bash
# benchdnn_lite --onnx on the QDQ models (scripts/models/qdq_models.py: ResNet-50 v1.5, MobileNet v2
# and a BERT-base encoder layer as onnxruntime.quantization writes them, mb1), unchanged, fused and
# unfused (--fused=off: Q, DQ and the f32 ops one by one), against ONNX Runtime's outputs within
# CONTRACT §6's tolerance for quantized models; without ONNX Runtime (scripts/ort, installed as
# onnx_models_e2e.sh does) the fused run is compared with the unfused one. Then PRIM_VERBOSE=1's
# exec lines of the fused run must show every convolution and inner product in int8 (u8 or s8
# src, s8 weights) and JIT, BERT's two products of activations (Q·Kᵀ, P·V) included.
# By default the models are small variants that keep the run short (ResNet-50 at 64x64 with one
# bottleneck per stage, MobileNet v2 at 96x96, BERT at seq 32); QDQ_FULL=1 runs the full ones
# (224x224, [3,4,6,3] bottlenecks, seq 128). Prints "onnx_qdq_models_e2e: OK" when all passed.
#   [QDQ_FULL=1] onnx_qdq_models_e2e.sh BENCHDNN_LITE SOURCE_DIR
set -euo pipefail
bdl=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
source "$src/tests/ort_installed.sh"
if [ "${QDQ_FULL:-0}" = 1 ]; then
  declare -A opts=([resnet50]="" [mobilenet_v2]="" [bert_encoder]="")
else
  declare -A opts=([resnet50]="--resolution 64 --blocks 1,1,1,1" [mobilenet_v2]="--resolution 96"
                   [bert_encoder]="--seq 32")
fi
status=0
for model in resnet50 mobilenet_v2 bert_encoder; do
  # shellcheck disable=SC2086
  /usr/bin/python3 "$src/scripts/models/qdq_models.py" "$model" -o "$tmp/$model.onnx" --batch 1 \
    --data "$tmp/$model" ${opts[$model]} >/dev/null
  data="$tmp/$model/test_data_set_0"
  if [ $have_ort = 1 ] && node "$ort/run_model.js" "$tmp/$model.onnx" "$data" >/dev/null 2>&1; then
    echo "$model QDQ (${opts[$model]:-full}): against ONNX Runtime's output, fused and unfused"
    "$bdl" --onnx --fused=both -v1 --data="$data" "$tmp/$model.onnx" || status=1
  else
    echo "$model QDQ (${opts[$model]:-full}): ONNX Runtime is not installed; fused against unfused"
    "$bdl" --onnx -v1 "$tmp/$model.onnx" || status=1
  fi
  # Every convolution and inner product of the fused run in int8 (the run's exec lines, not the
  # load-time ones: those come before the mode's first line).
  lines=$(PRIM_VERBOSE=1 "$bdl" --onnx --fused=on --mode=P --max-ms-per-prb=1 "$tmp/$model.onnx" 2>&1 |
          grep -E '^prim_verbose,exec,(convolution|inner_product),' || true)
  int8=$(echo "$lines" | grep -vE ',(u8|s8):s8:' || true)
  not_jit=$(echo "$lines" | grep -vE '^prim_verbose,exec,[a-z_]*,jit:' || true)
  if [ -z "$lines" ] || [ -n "$int8$not_jit" ]; then
    echo "$model QDQ: not every convolution and inner product ran in int8 JIT:"
    printf '%s\n%s\n' "$int8" "$not_jit" | grep . | cut -d, -f1-6 | sort | uniq -c
    status=1
  else
    echo "$model QDQ: $(echo "$lines" | wc -l) convolution and inner product runs, every one int8 JIT"
  fi
done
[ $status = 0 ] && echo "onnx_qdq_models_e2e: OK"
exit $status
