#!/usr/bin/env bash
# The docs must not contradict the code (issue 30: reference.md called `benchdnn_lite --onnx` and
# the binary and pooling exec lines "planned" while they worked, and benchdnn_lite.md did not
# document --onnx or its perf lines). Three checks, over README.md and doc/*.md:
#  1. "planned" only with a probe: a line saying a feature is planned carries
#     <!-- probe: ARGS -->, benchdnn_lite ARGS must fail (the feature is not there), and a probe
#     that succeeds means the docs call an existing feature planned. A line using the word
#     otherwise carries <!-- not-a-feature -->.
#  2. Every driver of `benchdnn_lite --help` (--conv ... --pool, --onnx) is documented in
#     doc/benchdnn_lite.md and doc/reference.md.
#  3. Every kind of perf or roof line benchdnn_lite's sources print ("perf,onnx", "roof_peak,",
#     ...) is documented in doc/benchdnn_lite.md.
#  4. Every relative link to a page ([...](doc/porting.md), [...](fusion_plan.md#...)) names a
#     file that exists, and the README links the porting notes (doc/porting.md).
# Usage: doc_claims.sh SOURCE_DIR BENCHDNN_LITE
set -uo pipefail
root=$1
bdl=$2
fail=0
problem() {
  echo "doc_claims: $*"
  fail=1
}

# 1. planned features and their probes
while IFS= read -r hit; do
  file=${hit%%:*}
  rest=${hit#*:}
  line=${rest%%:*}
  text=${rest#*:}
  case $text in
    *'<!-- not-a-feature -->'*) continue ;;
  esac
  probe=$(printf '%s\n' "$text" | sed -n 's/.*<!-- probe: \(.*\) -->.*/\1/p')
  if [ -z "$probe" ]; then
    problem "$file:$line says planned without a probe (<!-- probe: ARGS -->): $text"
    continue
  fi
  # shellcheck disable=SC2086 # the probe is a list of arguments
  if "$bdl" $probe >/dev/null 2>&1; then
    problem "$file:$line says planned, but its probe 'benchdnn_lite $probe' succeeds: the feature exists"
  fi
done < <(cd "$root" && grep -n -i -w -H 'planned' README.md doc/*.md)

# 2. the drivers
drivers=$("$bdl" --help | grep -o -- '--[a-z]*' | sort -u | grep -v -x -e '--mode' -e '--fused' -e '--data' -e '--mb')
for d in $drivers; do
  case $d in --conv|--ip|--eltwise|--binary|--bnorm|--lnorm|--softmax|--concat|--pool|--onnx) ;; *) continue ;; esac
  for doc in doc/benchdnn_lite.md doc/reference.md; do
    grep -q -E -- "$d([^a-z-]|\$)" "$root/$doc" || problem "$doc does not document the driver $d"
  done
done

# 3. the perf and roof lines
kinds=$(grep -rhoE '"(perf|roof)[a-z_]*,[a-z]*' "$root/benchdnn_lite" | tr -d '"' | sort -u)
for k in $kinds; do
  grep -qF -- "$k" "$root/doc/benchdnn_lite.md" || problem "doc/benchdnn_lite.md does not document the '$k' lines"
done

# 4. links to pages
for page in "$root"/README.md "$root"/doc/*.md; do
  dir=$(dirname "$page")
  for target in $(grep -o '](\([A-Za-z0-9_./-]*\.md\)' "$page" | sed 's/^](//'); do
    [ -f "$dir/$target" ] || problem "${page#$root/} links $target, which does not exist"
  done
done
grep -q '](doc/porting.md)' "$root/README.md" || problem "README.md does not link the porting notes (doc/porting.md)"

if [ $fail = 0 ]; then echo "doc_claims: OK"; else exit 1; fi
