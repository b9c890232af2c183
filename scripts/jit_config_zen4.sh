#!/bin/sh
# The configurations the JIT chooses (bench/prim_jit_config_table: conv blocking, loop order,
# gather, row merging; IP tiles and blocks) for ResNet-50, MobileNet, the other networks' and the
# tail layers, against the table recorded on the Zen 4 host (family 25 model 17) before the micro-architecture
# constants moved into jit/uarch (bench/jit_config_zen4.txt). On a CPU reporting other facts
# the check does not apply and says so.
#   scripts/jit_config_zen4.sh BUILD_DIR SOURCE_DIR
set -e
build=$1 src=$2
in=$src/benchdnn_lite/inputs
out=$(mktemp)
trap 'rm -f "$out"' EXIT
"$build/bench/prim_jit_config_table" --conv "$in/resnet50" --conv "$in/mobilenet" \
    --conv "$in/conv_other_networks" --conv "$in/conv_tails" --ip "$in/ip_bert" --ip "$in/ip_mb1" \
    --ip "$in/ip_other_networks" --ip "$in/ip_tails" --ip "$src/bench/jit_config_large_ip" > "$out"
recorded=$src/bench/jit_config_zen4.txt
if [ "$(head -1 "$out")" != "$(head -1 "$recorded")" ]; then
    echo "jit_config_zen4: not this CPU ($(head -1 "$out")), recorded on $(head -1 "$recorded")"
    echo "jit_config_zen4: SKIPPED"
    exit 0
fi
if diff "$recorded" "$out"; then
    echo "jit_config_zen4: OK ($(grep -c '^conv,' "$out") conv and $(grep -c '^ip,' "$out") ip configurations unchanged)"
else
    echo "jit_config_zen4: the configurations above changed on the Zen 4"
    exit 1
fi
