// prim: PRIM_API marks what libprim.so exports. The library is compiled with hidden visibility
// (-fvisibility=hidden), so only the declarations marked here are visible to programs; the
// internals (prim::impl, prim::jit, prim::ref, Xbyak) stay inside the library, as in oneDNN.
#pragma once

#define PRIM_API __attribute__((visibility("default")))
