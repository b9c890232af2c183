# Sourced by the ONNX test scripts: ort (scripts/ort, from $src) and have_ort (1 when ONNX Runtime's
# npm package is installed there and loads, else 0).
ort="$src/scripts/ort"
have_ort=0
if [ -d "$ort/node_modules/onnxruntime-node" ] && node "$ort/check_install.js" >/dev/null 2>&1; then
  have_ort=1
fi
