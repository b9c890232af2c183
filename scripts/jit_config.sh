#!/bin/sh
# The configurations the JIT chooses (bench/prim_jit_config_table: conv blocking, loop order,
# gather, row merging, shared taps; IP tiles and blocks) for ResNet-50, MobileNet, the other
# networks' and the tail layers on one of the CPUs the project runs on, configured from that
# CPU's facts on any machine (--cpu), against the table recorded for it
# (bench/jit_config_CPU.txt): a change to a decision shows here on every CPU it moves.
#   scripts/jit_config.sh BUILD_DIR SOURCE_DIR CPU       (CPU: zen3, zen4, zen5 or xeon207)
#   scripts/jit_config.sh BUILD_DIR SOURCE_DIR CPU -w    (rewrites the recorded table)
set -e
build=$1 src=$2 cpu=$3
in=$src/benchdnn_lite/inputs
out=$(mktemp)
trap 'rm -f "$out"' EXIT
"$build/bench/prim_jit_config_table" --cpu "$cpu" --conv "$in/resnet50" --conv "$in/mobilenet" \
    --conv "$in/conv_other_networks" --conv "$in/conv_tails" --ip "$in/ip_bert" --ip "$in/ip_mb1" \
    --ip "$in/ip_other_networks" --ip "$in/ip_tails" --ip "$src/bench/jit_config_large_ip" > "$out"
recorded=$src/bench/jit_config_$cpu.txt
if [ "${4:-}" = "-w" ]; then
    cp "$out" "$recorded"
    echo "jit_config_$cpu: wrote $recorded"
elif diff "$recorded" "$out"; then
    echo "jit_config_$cpu: OK ($(grep -c '^conv,' "$out") conv and $(grep -c '^ip,' "$out") ip configurations unchanged)"
else
    echo "jit_config_$cpu: the configurations above changed (rewrite the table with -w once each change is measured)"
    exit 1
fi
