#!/usr/bin/env bash
# Installs prim from the build tree into a scratch prefix, then builds and runs a consumer
# project against it with find_package(prim). When prim was built with its ONNX front end, the
# consumer also finds the onnx component and runs ONNX's test_relu through prim::onnx (the
# README's C++ ONNX line). Usage: run.sh BUILD_DIR SOURCE_DIR [onnx]
set -euo pipefail
build=$1
src=$2
relu=/usr/share/libonnx-testdata/data/node/test_relu
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
with_onnx=OFF
if [ "${3:-}" = onnx ]; then with_onnx=ON; fi
cmake --install "$build" --prefix "$work/prefix" >/dev/null
cmake -S "$src/tests/consumer" -B "$work/build" -DCMAKE_PREFIX_PATH="$work/prefix" \
  -DPRIM_CONSUMER_ONNX=$with_onnx >/dev/null
cmake --build "$work/build" >/dev/null
if [ $with_onnx = ON ]; then
  "$work/build/consumer_onnx" "$relu"
fi
"$work/build/consumer"
