#!/bin/sh
# Issue 16's performance targets on this machine, in one command: prim against oneDNN 2.6 in the
# same process, alternating case by case, for ResNet-50's 20 layers with sum+relu (AVX-512 and
# AVX2), the 8-entry chain with the sum first on its four layers, and BERT's inner products with
# gelu_erf; ROUNDS rounds, then the median of each ratio, the lowest layer and the % of the FMA
# peak, with the CPU's name (doc/performance.md keeps one table per CPU).
#
#   scripts/cpu_targets.sh [-b BUILD_DIR] [-r ROUNDS] [-m MAX_MS] [-o OUT_DIR]
#
#   -b  the build folder holding benchdnn_lite, built with oneDNN (default: build)
#   -r  rounds (default 5): this machine is shared, two-thread figures swing 10-30% between runs
#   -m  --max-ms-per-prb, each side's time budget per case (default 300)
#   -o  where the logs go (default: a temporary folder, removed at the end)
# OMP_NUM_THREADS defaults to 2 and OMP_WAIT_POLICY to passive. About a minute a round.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build
rounds=5
max_ms=300
out=""
while getopts b:r:m:o: opt; do
    case $opt in
    b) build=$OPTARG ;;
    r) rounds=$OPTARG ;;
    m) max_ms=$OPTARG ;;
    o) out=$OPTARG ;;
    *) sed -n '2,14s/^# \{0,1\}//p' "$0" >&2; exit 2 ;;
    esac
done
bdl=$build/benchdnn_lite
inputs=$root/benchdnn_lite/inputs
if [ ! -x "$bdl" ]; then
    echo "cpu_targets.sh: no $bdl (build it first, or pass -b BUILD_DIR)" >&2
    exit 2
fi
if [ -z "$out" ]; then
    out=$(mktemp -d)
    trap 'rm -rf "$out"' EXIT
fi
mkdir -p "$out"
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-2} OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-passive}

cpu=$(PRIM_VERBOSE=1 "$bdl" --conv mb1ic16ih4oc16oh4kh1 2>/dev/null \
      | sed -n 's/^prim_verbose,info,[^,]*,\(.*\)$/\1/p' | head -n 1)
model=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1)
load_before=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo "?")

chain=sum+elu:0.5+abs+sqrt+soft_relu:1+logistic+exp+swish:1
logs=""
# run NAME ROUND [ENV...] -- DRIVER ARGS...: one log; stops the script if benchdnn_lite refuses
# an option (a build without oneDNN) or a case fails.
run() {
    name=$1 round=$2
    shift 2
    log=$out/$name.$round.log
    env "$@" > "$log" 2>&1
    rc=$?
    if [ $rc -ne 0 ]; then
        tail -n 5 "$log" >&2
        echo "cpu_targets.sh: $name failed (exit $rc); log: $log" >&2
        trap - EXIT
        exit 1
    fi
    logs="$logs $name=$log"
}
common="--mode=P --cmp=onednn --max-ms-per-prb=$max_ms"
r=1
while [ "$r" -le "$rounds" ]; do
    echo "== round $r of $rounds" >&2
    run resnet50 $r "$bdl" --conv $common --attr-post-ops=sum+relu --batch="$inputs/resnet50"
    run resnet50_avx2 $r PRIM_MAX_CPU_ISA=avx2 ONEDNN_MAX_CPU_ISA=AVX2 \
        "$bdl" --conv $common --attr-post-ops=sum+relu --batch="$inputs/resnet50"
    run long_chain $r "$bdl" --conv $common --attr-post-ops=$chain --batch="$inputs/long_chain_layers"
    run bert $r "$bdl" --ip $common --attr-post-ops=gelu_erf --batch="$inputs/ip_bert"
    r=$((r + 1))
done

# shellcheck disable=SC2086 # $logs is a list of NAME=LOG words
python3 "$root/scripts/targets_table.py" --cpu "$model ($cpu)" $logs || exit 1
echo
echo "($(getconf _NPROCESSORS_ONLN) cores, OMP_NUM_THREADS=$OMP_NUM_THREADS," \
     "OMP_WAIT_POLICY=$OMP_WAIT_POLICY, --max-ms-per-prb=$max_ms, load average before" \
     "$load_before and after $(cut -d' ' -f1 /proc/loadavg)," \
     "commit $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)," \
     "$(date -u '+%Y-%m-%d %H:%M UTC'))"
