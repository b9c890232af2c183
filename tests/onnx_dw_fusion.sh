#!/usr/bin/env bash
# The graph fuser's dw pairs (src/graph/fuse_dw_pairs.cpp) on ONNX models written at test time
# (scripts/models/dw_pair_models.py, and MobileNet v2): each runs through benchdnn_lite --onnx,
# fused and unfused, against ONNX Runtime's outputs (fused against unfused when ONNX Runtime is not
# installed), with the dw fusion on and off (PRIM_GRAPH_DW_FUSION=0), on AVX512-VNNI, AVX-512 and
# AVX2 where the CPU has them; the fusion log (PRIM_VERBOSE=2) must hold each model's merge or refusal, and
# MobileNet v2 must merge all 16 of its expand -> depthwise pairs, in f32 and in its QDQ int8 form.
# Prints "onnx_dw_fusion: OK" when all passed.
#   onnx_dw_fusion.sh BENCHDNN_LITE SOURCE_DIR
set -euo pipefail
bdl=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
source "$src/tests/ort_installed.sh"
if [ $have_ort = 0 ]; then
  echo "ONNX Runtime is not installed (scripts/ort): fused against unfused only"
fi
/usr/bin/python3 "$src/scripts/models/dw_pair_models.py" "$tmp" >/dev/null
/usr/bin/python3 "$src/scripts/models/mobilenet_v2.py" -o "$tmp/mobilenet_v2.onnx" --batch 1 --data "$tmp/mobilenet_v2" >/dev/null
isas=""
grep -qw avx512_vnni /proc/cpuinfo && isas="avx512_vnni"
grep -qw avx512f /proc/cpuinfo && isas="$isas avx512"
grep -qw avx2 /proc/cpuinfo && isas="$isas avx2"
isas=${isas:-all}
status=0
run() { # MODEL DW_FUSION(1|0) ISA: fused and unfused against ONNX Runtime, the log in $out
  local data=""
  [ $have_ort = 1 ] && data="--data=$tmp/$1/test_data_set_0"
  out=$(PRIM_VERBOSE=2 PRIM_GRAPH_DW_FUSION=$2 PRIM_MAX_CPU_ISA=$3 "$bdl" --onnx --fused=both $data "$tmp/$1.onnx" 2>&1) \
    && return 0
  echo "$1 (dw fusion $2, $3): FAILED"; echo "$out" | grep -v '^prim_verbose,\(exec\|create\|dispatch\)'; status=1; return 1
}
check() { # MODEL EXPECTED_LOG_TEXT [COUNT]: the text in the log (COUNT times), none with the fusion off
  for isa in $isas; do
    if run "$1" 1 "$isa"; then
      local n; n=$(grep -cF -- "$2" <<< "$out" || true)
      if [ "$n" = "${3:-1}" ]; then echo "$1 ($isa): passed, logged ${3:-1}x: $2"
      else echo "$1 ($isa): the log holds $n, not ${3:-1}, of: $2"; echo "$out" | grep '^prim_verbose,fuse'; status=1; fi
    fi
    if run "$1" 0 "$isa"; then
      if grep -qF -- "+dw:" <<< "$out"; then echo "$1 ($isa): a dw merge with PRIM_GRAPH_DW_FUSION=0"; status=1
      else echo "$1 ($isa, dw fusion off): passed"; fi
    fi
  done
}
for m in dw_pairs dw_odd dw_two_consumers dw_3x3_first dw_strided_1x1 dw_start_padding; do
  [ $have_ort = 1 ] && node "$ort/run_model.js" "$tmp/$m.onnx" "$tmp/$m/test_data_set_0" >/dev/null
done
[ $have_ort = 1 ] && node "$ort/run_model.js" "$tmp/mobilenet_v2.onnx" "$tmp/mobilenet_v2/test_data_set_0" >/dev/null
check dw_pairs "fuse,fused,Conv+BatchNormalization(folded)+Clip+dw:k3s1p1(Conv+BatchNormalization(folded)+Clip),conv_0+batchnormalization_1+clip_2+conv_3+batchnormalization_4+clip_5"
check dw_pairs "+dw:k3s2p1(Conv+BatchNormalization(folded)+Clip),conv_9+"
check dw_pairs "+dw:k5s2p2(Conv+BatchNormalization(folded)+Clip),conv_17+"
check dw_odd "fuse,fused,Conv+BatchNormalization(folded)+Clip+dw:k3s2p1(Conv+BatchNormalization(folded)+Clip)"
check dw_two_consumers "conv_3 not fused into conv_0: conv_0's output has another consumer"
check dw_3x3_first "conv_3 not fused into conv_0: conv_0 has a 3x3 kernel: the dw post-op follows a 1x1 convolution only"
check dw_strided_1x1 "conv_3 not fused into conv_0: conv_0 has stride 2: the dw post-op follows stride 1 only"
check dw_start_padding "conv_3 not fused into conv_0: conv_3's output 1x48x11x11 with end padding 0x0 is not the dw post-op's: ceil(i / 1) = 12x12 with end padding 1x1"
# MobileNet v2: 17 inverted residual blocks, the first without an expand layer.
check mobilenet_v2 "fuse,fused,Conv+Clip+dw:k3s" 16
# int8: QDQ MobileNet v2 at 64x64 (scripts/models/qdq_models.py), whose 16 pairs are two
# QLinearConv ops with a u8 intermediate without a zero point: all 16 merge, on the reference
# (PRIM_MAX_CPU_ISA=none) and on the int8 fused pass of each JIT ISA (its exec lines name it),
# against ONNX Runtime within CONTRACT §6's tolerance, the dw fusion on and off.
/usr/bin/python3 "$src/scripts/models/qdq_models.py" mobilenet_v2 -o "$tmp/qdq_mobilenet_v2.onnx" --batch 1 \
  --resolution 64 --data "$tmp/qdq_mobilenet_v2" >/dev/null
[ $have_ort = 1 ] && node "$ort/run_model.js" "$tmp/qdq_mobilenet_v2.onnx" "$tmp/qdq_mobilenet_v2/test_data_set_0" >/dev/null
int8_merge="+QuantizeLinear(int8)+dw:k3s"
isas="none" check qdq_mobilenet_v2 "$int8_merge" 16
check qdq_mobilenet_v2 "$int8_merge" 16
for isa in ${isas/all/}; do
  run qdq_mobilenet_v2 1 "$isa" || continue
  jit=$(grep -cE '^prim_verbose,exec,convolution,jit:[a-z0-9_]*,u8:s8:u8,[^,]*,([^,]*\+)?dw:k3s' <<< "$out" || true)
  if [ "$jit" -ge 16 ]; then echo "qdq_mobilenet_v2 ($isa): the int8 pairs run on the JIT"
  else echo "qdq_mobilenet_v2 ($isa): $jit int8 pair exec lines on the JIT, not 16 or more"; status=1; fi
done
[ $status = 0 ] && echo "onnx_dw_fusion: OK"
exit $status
