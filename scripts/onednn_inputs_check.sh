#!/usr/bin/env bash
# Runs every oneDNN benchdnn input file of the drivers benchdnn_lite has through it in list mode
# (--mode=L: every option parsed, every case listed or skipped, nothing run) and prints each file
# that stops with exit status 2 on an option, with the message.
# Usage: onednn_inputs_check.sh BENCHDNN_LITE ONEDNN_INPUTS_DIR
#   (ONEDNN_INPUTS_DIR: a oneDNN checkout's tests/benchdnn/inputs)
set -u
bdl=$1
inputs=$2
stopped=0
files=0
for driver in conv ip eltwise pool binary bnorm lnorm softmax concat; do
  for f in "$inputs/$driver"/*; do
    [ -f "$f" ] || continue
    files=$((files + 1))
    msg=$("$bdl" --mode=L --$driver --batch="$f" 2>&1 >/dev/null)
    if [ $? -eq 2 ]; then
      stopped=$((stopped + 1))
      echo "$driver/$(basename "$f"): $msg"
    fi
  done
done
echo "onednn_inputs_check: $files files, $stopped stopped on an option"
