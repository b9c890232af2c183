#!/usr/bin/env bash
# The sanitizer run (doc/testing.md): builds the tests and benchdnn_lite with AddressSanitizer
# and UndefinedBehaviorSanitizer in a build folder of their own, then runs ctest and a set of
# benchdnn_lite batches, the batches on both ISAs (the machine's best, then PRIM_MAX_CPU_ISA=avx2).
# Any report aborts the program that made it, so it fails its test or batch. A second, instrumented
# full build (25 minutes on 2 shared cores) plus about 2 minutes of runs: more than CI's budget,
# so it is run by hand, not by .ci/run.
#
#   scripts/sanitize.sh [BUILD_DIR]        default BUILD_DIR: build-sanitize in the repository
#   SANITIZE_STEPS="build ctest batches"   the steps to run (default: all three)
#   JOBS=N                                 parallel build jobs (default 2)
#
# Exit status 0 when every step passed; otherwise 1, after running the rest, with a summary.
set -uo pipefail

src=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$src/build-sanitize}
steps=${SANITIZE_STEPS:-build ctest batches}
jobs=${JOBS:-2}

# halt_on_error and -fno-sanitize-recover: the first report ends the program with an error.
# allocator_may_return_null: test_bad_input asks for a buffer no machine has and expects
# out_of_memory, which ASan would otherwise turn into an abort.
export ASAN_OPTIONS=${ASAN_OPTIONS:-halt_on_error=1:detect_leaks=1:allocator_may_return_null=1:strict_string_checks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}

failed=()
step() { echo "== sanitize: $*"; }
run() { # NAME COMMAND...: runs it, records a failure by name
    local name=$1
    shift
    step "$name"
    if ! "$@"; then
        echo "== sanitize: FAILED: $name"
        failed+=("$name")
    fi
}

if [[ " $steps " == *" build "* ]]; then
    # The microbenchmarks are left out: they test speed, which a sanitizer build does not have.
    step "build in $build"
    cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DCMAKE_CXX_FLAGS="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined" \
        -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
        -DCMAKE_SHARED_LINKER_FLAGS="-fsanitize=address,undefined" \
        -DPRIM_BUILD_BENCH=OFF || exit 1
    cmake --build "$build" -j"$jobs" || exit 1
fi

if [[ " $steps " == *" ctest "* ]]; then
    # Left out:
    # - install_consumer builds a project outside this tree against the installed libprim.so
    #   without the sanitizer flags; an ASan library needs the ASan runtime loaded first, so
    #   that program cannot start (it tests packaging, which the normal build covers).
    # - readme_commands compares README.md with .ci/run: text only, nothing to sanitize.
    # - test_kernel_cache runs apart, without ASan's quarantine: it checks that the resident
    #   memory stays flat over 100,000 primitives, and the quarantine holds back up to 256 MB of
    #   freed blocks (346 MB measured) to catch use after free, which the check would count.
    run ctest ctest --test-dir "$build" --output-on-failure -j1 \
        -E '^(install_consumer|readme_commands|test_kernel_cache)$'
    run ctest:test_kernel_cache env ASAN_OPTIONS="$ASAN_OPTIONS:quarantine_size_mb=0" \
        ctest --test-dir "$build" --output-on-failure -R '^test_kernel_cache$'
fi

if [[ " $steps " == *" batches "* ]]; then
    bdl=$build/benchdnn_lite
    in=$src/benchdnn_lite/inputs
    for isa in "" avx2; do
        tag=${isa:-best}
        batch() { # DRIVER BATCH [DESCRIPTORS...]
            local driver=$1 file=$2
            shift 2
            run "$tag:$driver:$file" env ${isa:+PRIM_MAX_CPU_ISA=$isa} \
                "$bdl" "--$driver" "--batch=$in/$file" "$@"
        }
        batch conv conv_tails
        batch ip ip_tails
        batch eltwise eltwise_all
        batch conv default_fused
        # Every chain of post_ops_all on one small convolution with a channel tail and padding.
        batch conv post_ops_all mb2ic19ih7oc21kh3ph1
    done
fi

if ((${#failed[@]})); then
    echo "== sanitize: ${#failed[@]} step(s) failed: ${failed[*]}"
    exit 1
fi
echo "== sanitize: OK ($steps)"
