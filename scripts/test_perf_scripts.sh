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
[ $fail -eq 0 ] && echo "perf_scripts: OK"
exit $fail
