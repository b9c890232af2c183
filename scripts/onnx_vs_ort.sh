#!/usr/bin/env bash
# prim (fused and unfused) against ONNX Runtime on one model, in alternation: ROUNDS times, a
# short benchdnn_lite --onnx P run (fused and unfused alternate inside it) then a short ONNX
# Runtime run (2 intra-op threads, graph optimisations on), each side's median per round kept.
# Prints each round and the medians of the rounds: prim fused, prim unfused, ONNX Runtime, and
# ONNX Runtime / prim fused, unfused / fused.
#   scripts/onnx_vs_ort.sh BENCHDNN_LITE MODEL.onnx [BATCH=1] [ROUNDS=7]
# Needs scripts/ort/node_modules (npm install --ignore-scripts in scripts/ort).
set -euo pipefail
bdl=$1 model=$2 batch=${3:-1} rounds=${4:-7}
ort_dir="$(cd "$(dirname "$0")/ort" && pwd)"
export OMP_NUM_THREADS=2 OMP_WAIT_POLICY=passive
echo "cpu: $(lscpu | sed -n 's/^Model name: *//p'); load: $(cut -d' ' -f1-3 /proc/loadavg)"
fused=() unfused=() ort=()
for r in $(seq "$rounds"); do
  out=$("$bdl" --onnx --mode=P --fused=both --mb="$batch" --max-ms-per-prb=1500 "$model")
  f=$(echo "$out" | awk -F, '/^perf_cmp,onnx/ {print $4}')
  u=$(echo "$out" | awk -F, '/^perf_cmp,onnx/ {print $5}')
  o=$(node "$ort_dir/time_model.js" "$model" --batch "$batch" --threads 2 --runs 20 --warmup 3 2>/dev/null |
      awk -F, '/^ort,/ {print $6}')
  echo "round $r: prim fused $f ms, unfused $u ms, onnxruntime $o ms"
  fused+=("$f") unfused+=("$u") ort+=("$o")
done
median() { printf '%s\n' "$@" | sort -g | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2}'; }
mf=$(median "${fused[@]}") mu=$(median "${unfused[@]}") mo=$(median "${ort[@]}")
awk -v f="$mf" -v u="$mu" -v o="$mo" -v m="$(basename "$model")" -v b="$batch" 'BEGIN {
  printf "%s mb%d median of rounds: prim fused %.2f ms, unfused %.2f ms, onnxruntime %.2f ms; onnxruntime/prim %.3f, unfused/fused %.3f\n", m, b, f, u, o, o / f, u / f }'
