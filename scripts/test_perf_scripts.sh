#!/bin/sh
# ctest perf_scripts: perf_table.py and perf_chart.py on a hand-made log whose geometric means
# are known: fusion speedups 2 and 0.5 (geomean 1), ours/oneDNN 4 and 1 (geomean 2), one case
# oneDNN skipped, one case that failed.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap "rm -rf $tmp" EXIT
cat > "$tmp/a.log" <<'EOF'
perf,conv,jit:avx512,relu,mb2ic8ih4oc8oh4kh1n"net:l1",100,1,1.1
perf,conv,jit:avx512:unfused,relu,mb2ic8ih4oc8oh4kh1n"net:l1",50,2,2.2
perf,conv,onednn:brg:avx512_core,relu,mb2ic8ih4oc8oh4kh1n"net:l1",25,4,4.4
perf_cmp,conv,relu,mb2ic8ih4oc8oh4kh1n"net:l1",100,50,2.000
perf_onednn,conv,relu,mb2ic8ih4oc8oh4kh1n"net:l1",100,25,4.000
perf,conv,jit:avx512,relu,mb2ic8ih4oc8oh4kh1n"net:l2",50,2,2
perf,conv,jit:avx512:unfused,relu,mb2ic8ih4oc8oh4kh1n"net:l2",100,1,1
perf,conv,onednn:brg:avx512_core,relu,mb2ic8ih4oc8oh4kh1n"net:l2",50,2,2
perf_cmp,conv,relu,mb2ic8ih4oc8oh4kh1n"net:l2",50,100,0.500
perf_onednn,conv,relu,mb2ic8ih4oc8oh4kh1n"net:l2",50,50,1.000
perf_onednn_skipped,conv,softsign,mb2ic8ih4oc8oh4kh1n"net:l1",oneDNN 2.6 has no softsign
perf,conv,jit:avx512,softsign,mb2ic8ih4oc8oh4kh1n"net:l1",80,1,1
perf,conv,jit:avx512:unfused,softsign,mb2ic8ih4oc8oh4kh1n"net:l1",40,2,2
perf_cmp,conv,softsign,mb2ic8ih4oc8oh4kh1n"net:l1",80,40,2.000
7:FAILED (perf: boom) __REPRO: --conv --mode=P --fused=both --cmp=onednn --attr-post-ops=tanh mb2ic8ih4oc8oh4kh1n"net:l2"
perf_cmp_geomean,conv,3,...
3 passed, 1 failed
EOF
python3 "$root/scripts/perf_table.py" --csv "$tmp/perf.csv" --markdown "$tmp/t.md" net="$tmp/a.log" \
    > "$tmp/table.txt"
cat "$tmp/table.txt"
fail=0
expect() { # expect FILE REGEX: a line of FILE matches REGEX
    if ! grep -Eq "$2" "$1"; then echo "MISSING in $1: $2"; fail=1; fi
}
expect "$tmp/table.txt" '^l1 +relu +100\.0 +50\.0 +2\.00 +25\.0 +4\.00 +jit:avx512, brg:avx512_core$'
expect "$tmp/table.txt" '^geomean relu +2 cases +70\.7 +70\.7 +1\.00 +35\.4 +2\.00 +2 compared with oneDNN$'
expect "$tmp/table.txt" '^l1 +softsign +80\.0 +40\.0 +2\.00 +- +- +jit:avx512; oneDNN skipped: oneDNN 2\.6 has no softsign$'
expect "$tmp/table.txt" '^l2 +tanh +- +- +- +- +- +FAILED \(perf: boom\)$'
expect "$tmp/table.txt" '^geomean all +4 cases +'
expect "$tmp/perf.csv" '^net,l2,"mb2ic8ih4oc8oh4kh1n""net:l2""",relu,jit:avx512,50,2,2,100,1,1,0\.500,0\.500,brg:avx512_core,50,2,2,1\.000,1\.000,$'
expect "$tmp/t.md" '^\| \*\*geomean relu\*\* \| \*\*2 cases\*\* \|'
if command -v gnuplot > /dev/null; then
    python3 "$root/scripts/perf_chart.py" "$tmp/perf.csv" "$tmp/chart.svg"
    expect "$tmp/chart.svg" '<svg'
    expect "$tmp/chart.svg" 'geomean: relu 1\.00, softsign 2\.00'
fi

# targets_table.py (scripts/cpu_targets.sh): two rounds of ResNet-50 whose ratios and roofs are
# known, and a round of the chain; a log without its geomean is refused.
printf '%s\n' 'perf_onednn,conv,sum+relu,mb2ic8ih4oc8oh4kh1n"net:a",10,10,1.200' \
    'perf_onednn,conv,sum+relu,mb2ic8ih4oc8oh4kh1n"net:b",10,10,0.900' \
    'roof_geomean,conv,2,150,200,75.0' 'perf_onednn_geomean,conv,2,10,10,1.040' > "$tmp/r1.log"
printf '%s\n' 'perf_onednn,conv,sum+relu,mb2ic8ih4oc8oh4kh1n"net:a",10,10,1.000' \
    'perf_onednn,conv,sum+relu,mb2ic8ih4oc8oh4kh1n"net:b",10,10,0.960' \
    'roof_geomean,conv,2,150,200,65.0' 'perf_onednn_geomean,conv,2,10,10,1.200' > "$tmp/r2.log"
printf '%s\n' 'perf_onednn_geomean,conv,4,10,10,1.300' > "$tmp/c1.log"
python3 "$root/scripts/targets_table.py" --cpu "Test CPU" resnet50="$tmp/r1.log" \
    resnet50="$tmp/r2.log" long_chain="$tmp/c1.log" > "$tmp/targets.txt"
cat "$tmp/targets.txt"
expect "$tmp/targets.txt" '^CPU: Test CPU$'
expect "$tmp/targets.txt" '^\| ResNet-50 20 layers sum\+relu, AVX-512 \| 1\.1x \| 1\.120x \| 1\.040-1\.200 \| 2 \| yes \|$'
expect "$tmp/targets.txt" '^\| lowest layer: mb2ic8ih4oc8oh4kh1n"net:b" \| 0\.95x \| 0\.930x \| 0\.900-0\.960 \| 2 \| no \|$'
expect "$tmp/targets.txt" '^\| ResNet-50 batch, % of the FMA peak \(geomean\) \| 70% \| 70\.0% \| 65\.0-75\.0 \| 2 \| yes \|$'
expect "$tmp/targets.txt" '^\| 8-entry chain \(sum first\) on its 4 layers \| 1\.25x \| 1\.300x \| - \| 1 \| yes \|$'
if python3 "$root/scripts/targets_table.py" bert="$tmp/a.log" 2> "$tmp/err.txt"; then
    echo "targets_table.py took a log without perf_onednn_geomean"; fail=1
fi
expect "$tmp/err.txt" 'has no perf_onednn_geomean line'

[ $fail -eq 0 ] && echo "perf_scripts: OK"
exit $fail
