#!/usr/bin/env bash
# The library boundary: libprim.so exports the public API (include/prim, marked PRIM_API) and
# nothing of its internals. Usage: exported_symbols.sh LIBPRIM_SO
set -euo pipefail
lib=$1

# Exported symbols that must not be: the library's internal namespaces and Xbyak.
internal='prim::(impl|jit|ref)::|Xbyak'
# The filter must catch what it is meant to, or the check below proves nothing.
for sample in 'T prim::impl::internal_reorder::execute(prim::memory const&) const' \
              'T prim::jit::kernel_cache::get()' 'T prim::ref::ref_conv_fwd()' \
              'W Xbyak::CodeGenerator::~CodeGenerator()'; do
    if ! grep -Eq "$internal" <<< "$sample"; then
        echo "exported_symbols: the filter misses '$sample'"
        exit 1
    fi
done

symbols=$(nm -D -C --defined-only "$lib")
leaked=$(grep -E "$internal" <<< "$symbols" || true)
if [ -n "$leaked" ]; then
    echo "exported_symbols: $lib exports internal symbols:"
    echo "$leaked"
    exit 1
fi
# A few public entry points that programs link against.
for public in 'prim::reorder::execute(prim::memory const&, prim::memory const&) const' \
              'prim::primitive::execute(' 'prim::memory::desc::desc(' \
              'prim::convolution_forward::primitive_desc::primitive_desc(' \
              'prim::parse_post_ops(' 'typeinfo for prim::error'; do
    if ! grep -Fq "$public" <<< "$symbols"; then
        echo "exported_symbols: $lib does not export $public"
        exit 1
    fi
done
echo "exported_symbols: OK"
