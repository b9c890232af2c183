#!/bin/sh
# The performance report of doc/performance.md in one command: ResNet-50 convolutions and BERT
# inner products, each case timed fused, unfused and through oneDNN 2.6 in rotation, printed per
# case with geometric means, saved as CSV and Markdown, and drawn as the chart.
#
#   scripts/perf_report.sh [-b BUILD_DIR] [-o OUT_DIR] [-c CHART] [-m MAX_MS] [-q]
#
#   -b  the build folder holding benchdnn_lite, built with oneDNN (default: build)
#   -o  where the logs, perf.csv, tables.md and run.txt (the conditions) go (default: doc/perf_data)
#   -c  the chart (default: doc/perf_chart.svg; "" for none); needs gnuplot
#   -m  --max-ms-per-prb, each side's time budget per case (default 500; 50 for a quick look)
#   -q  quick: conv1 and the res2a layers of ResNet-50, the first BERT layer, -m 50
# OMP_NUM_THREADS defaults to 2 (both libraries share the OpenMP runtime).
# The exit status is benchdnn_lite's: 0 when every case ran.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build
out=$root/doc/perf_data
chart=$root/doc/perf_chart.svg
max_ms=500
match=""
while getopts b:o:c:m:q opt; do
    case $opt in
    b) build=$OPTARG ;;
    o) out=$OPTARG ;;
    c) chart=$OPTARG ;;
    m) max_ms=$OPTARG ;;
    q) max_ms=50; match_conv='conv1|res2a'; match_ip='attention' ;;
    *) sed -n '2,16s/^# \{0,1\}//p' "$0" >&2; exit 2 ;;
    esac
done
bdl=$build/benchdnn_lite
inputs=$root/benchdnn_lite/inputs
if [ ! -x "$bdl" ]; then
    echo "perf_report.sh: no $bdl (build it first, or pass -b BUILD_DIR)" >&2
    exit 2
fi
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-2}
mkdir -p "$out"

# The load of the other processes: two threads that wait for a core at every barrier make
# every figure meaningless, so say it when the machine is busy.
# (Checked once, before our own runs raise the load.)
load=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo 0)
if awk "BEGIN { exit !($load > 0.5) }"; then
    echo "perf_report.sh: warning: load average $load: other processes compete for the cores," \
         "the figures are unreliable" >&2
fi

status=0
# run NAME DRIVER BATCH MATCH: the batch's perf lines into OUT/NAME.log (progress on stderr).
run() {
    echo "== $1: benchdnn_lite --$2 --max-ms-per-prb=$max_ms ${4:+--match=$4 }--batch=$3" >&2
    "$bdl" "--$2" "--max-ms-per-prb=$max_ms" ${4:+"--match=$4"} "--batch=$inputs/$3" > "$out/$1.log"
    rc=$?
    if [ $rc -eq 2 ]; then # an option refused: most likely a build without oneDNN
        cat "$out/$1.log" >&2
        exit 2
    fi
    [ $rc -ne 0 ] && status=$rc
    grep '_geomean,' "$out/$1.log" >&2
}
run resnet50 conv perf_resnet50 "${match_conv:-}"
run bert ip perf_bert "${match_ip:-}"

python3 "$root/scripts/perf_table.py" --csv "$out/perf.csv" --markdown "$out/tables.md" \
    resnet50="$out/resnet50.log" bert="$out/bert.log" || exit 1
commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
run_info="$(getconf _NPROCESSORS_ONLN) cores, OMP_NUM_THREADS=$OMP_NUM_THREADS, --max-ms-per-prb=$max_ms,\
 load average before $load and after $(cut -d' ' -f1 /proc/loadavg), commit $commit,\
 $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "$run_info" > "$out/run.txt"
echo "($run_info; logs, perf.csv and tables.md in $out)"
if [ -n "$chart" ]; then
    if command -v gnuplot > /dev/null; then
        threads="$OMP_NUM_THREADS threads"
        [ "$OMP_NUM_THREADS" = 1 ] && threads="1 thread"
        python3 "$root/scripts/perf_chart.py" --note "$threads, $(date -u +%F)" \
            "$out/perf.csv" "$chart" || status=1
    else
        echo "perf_report.sh: no gnuplot, no chart (Debian: apt-get install gnuplot-nox)" >&2
    fi
fi
exit $status
