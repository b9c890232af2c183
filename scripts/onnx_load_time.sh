#!/usr/bin/env bash
# Load and fuse + compile times of one model (issue 15: ResNet-50 under 100 ms on 2 threads), from
# benchdnn_lite --onnx -v2: RUNS fresh processes (the first touch of new memory is most of the
# time, so each run must start cold), each run's line printed, then the medians and minimums.
# C mode runs the model once after the timed part; DATA_DIR (ONNX's test_data_set_0 layout) makes
# that run check the expected outputs (without it the unfused graph is compiled too, as the
# reference, which takes memory and time beside the figures).
# The QDQ models of scripts/models/qdq_models.py (issue 27: ResNet-50 QDQ under 150 ms) come
# without expected outputs: give DATA_DIR as "" (the unfused reference is then compiled first).
#   scripts/onnx_load_time.sh BENCHDNN_LITE MODEL.onnx [DATA_DIR] [RUNS=7]
set -euo pipefail
bdl=$1 model=$2 data=${3:-} runs=${4:-7}
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-2}
echo "cpu: $(lscpu | sed -n 's/^Model name: *//p'); threads: $OMP_NUM_THREADS; load: $(cut -d' ' -f1-3 /proc/loadavg)"
lines=()
for r in $(seq "$runs"); do
  out=$("$bdl" --onnx --mode=C -v2 ${data:+--data="$data"} "$model")
  line=$(echo "$out" | grep -o 'load=.*') || { echo "$out"; exit 1; }
  grep -q '^0:PASSED' <<< "$out" || { echo "$out"; exit 1; }
  echo "run $r: $line"
  total=$(echo "$line" | grep -o '[0-9.]*ms' | head -2 | tr -d ms | awk '{s += $1} END {print s}')
  lines+=("$line total=${total}ms")
done
# Median and minimum of field NAME=VALUEms over the runs.
stat() {
  printf '%s\n' "${lines[@]}" | grep -o "$1=[0-9.]*" | cut -d= -f2 | sort -g |
    awk '{v[NR] = $1} END {m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2;
         printf "%.1f ms (min %.1f)", m, v[1]}'
}
echo "median of $runs: load $(stat load), fuse+compile $(stat fuse+compile), both $(stat total)"
