#!/usr/bin/env bash
# prim (fused and unfused) against ONNX Runtime on one model, in alternation: ROUNDS times, a
# short benchdnn_lite --onnx P run of the fused graph alone, a short ONNX Runtime run (2 intra-op
# threads, graph optimisations on), then a benchdnn_lite run with fused and unfused alternating
# inside it; each side's median per round kept. The ONNX Runtime ratio compares the two engines
# each alone in its process (the alternating run's fused figure is slower by a few percent: the
# unfused graph's runs between them leave the caches and the weights' pages cold); the unfused
# ratio comes from the alternating run.
# Prints each round and the medians of the rounds: prim fused, prim unfused, ONNX Runtime, and
# ONNX Runtime / prim fused, unfused / fused.
#   [WAIT=passive|active|default] scripts/onnx_vs_ort.sh BENCHDNN_LITE MODEL.onnx [BATCH=1] [ROUNDS=7]
# Needs scripts/ort/node_modules (npm install --ignore-scripts in scripts/ort).
set -euo pipefail
bdl=$1 model=$2 batch=${3:-1} rounds=${4:-7}
ort_dir="$(cd "$(dirname "$0")/ort" && pwd)"
# prim's threads wait passively by default (the shared machine's setting); WAIT=default leaves
# libgomp's own policy (spin a while, then sleep), the one ONNX Runtime's threads resemble.
export OMP_NUM_THREADS=2
case "${WAIT:-passive}" in
  default) unset OMP_WAIT_POLICY ;;
  passive|active) export OMP_WAIT_POLICY=${WAIT:-passive} ;;
  *) echo "WAIT must be passive, active or default" >&2; exit 2 ;;
esac
echo "cpu: $(lscpu | sed -n 's/^Model name: *//p'); load: $(cut -d' ' -f1-3 /proc/loadavg); prim wait policy: ${OMP_WAIT_POLICY:-libgomp default}"
fused=() unfused=() ort=() ratio=()
for r in $(seq "$rounds"); do
  f=$("$bdl" --onnx --mode=P --fused=on --mb="$batch" --max-ms-per-prb=1500 "$model" |
      awk -F, '/^perf,onnx/ {print $6}')
  o=$(node "$ort_dir/time_model.js" "$model" --batch "$batch" --threads 2 --runs 20 --warmup 3 2>/dev/null |
      awk -F, '/^ort,/ {print $6}')
  both=$("$bdl" --onnx --mode=P --fused=both --mb="$batch" --max-ms-per-prb=1500 "$model")
  u=$(echo "$both" | awk -F, '/^perf_cmp,onnx/ {print $5}')
  q=$(echo "$both" | awk -F, '/^perf_cmp,onnx/ {print $6}')
  echo "round $r: prim fused $f ms, onnxruntime $o ms; alternating: unfused $u ms, unfused/fused $q"
  fused+=("$f") unfused+=("$u") ort+=("$o") ratio+=("$q")
done
median() { printf '%s\n' "$@" | sort -g | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2}'; }
mf=$(median "${fused[@]}") mu=$(median "${unfused[@]}") mo=$(median "${ort[@]}") mq=$(median "${ratio[@]}")
awk -v f="$mf" -v u="$mu" -v o="$mo" -v q="$mq" -v m="$(basename "$model")" -v b="$batch" 'BEGIN {
  printf "%s mb%d median of rounds: prim fused %.2f ms, unfused %.2f ms, onnxruntime %.2f ms; onnxruntime/prim %.3f, unfused/fused %.3f\n", m, b, f, u, o, o / f, q }'
