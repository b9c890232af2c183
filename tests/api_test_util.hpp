// Helpers for the tests that drive the public API as a user would: run a statement and keep
// what it threw, check a prim::error's status and message, plain memory descriptors.
#pragma once
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "isa_under_test.hpp"
#include "prim/prim.hpp"

using namespace prim;
using tag = memory::format_tag;
using dt = memory::data_type;
using dims = memory::dims;

namespace {

const float nan_f = std::numeric_limits<float>::quiet_NaN();
const memory::dim huge = memory::dim(1) << 40; // any two of these overflow 64 bits

#if defined(__SANITIZE_ADDRESS__)
const bool asan_build = true;
#else
const bool asan_build = false;
#endif

// What a call threw: nothing, a prim::error (status and message), or something else.
struct outcome {
    bool threw_prim = false;
    status st = status::success;
    std::string message = "no exception";
};

// inline: a test that includes this header without calling it must not warn.
inline outcome run(const std::function<void()> &f) {
    outcome o;
    try {
        f();
    } catch (const error &e) {
        o.threw_prim = true;
        o.st = e.get_status();
        o.message = e.what();
    } catch (const std::exception &e) {
        o.message = std::string("not a prim::error: ") + e.what();
    }
    return o;
}

} // namespace

// The statement must throw prim::error with status ST and a message containing FRAGMENT.
#define CHECK_PRIM_ERROR(stmt, ST, FRAGMENT)                                                    \
    do {                                                                                       \
        const outcome o_ = run([&]() { stmt; });                                               \
        INFO("statement: " #stmt "\nmessage: " << o_.message);                                 \
        CHECK(o_.threw_prim);                                                                  \
        CHECK(o_.st == (ST));                                                                  \
        CHECK_THAT(o_.message, Catch::Contains(FRAGMENT));                                     \
    } while (0)

#define CHECK_INVALID(stmt, FRAGMENT) CHECK_PRIM_ERROR(stmt, status::invalid_arguments, FRAGMENT)

namespace {

inline float *data(const memory &m) { return static_cast<float *>(m.get_data_handle()); }

memory::desc plain(const dims &d) {
    static const tag by_rank[] = {tag::undef, tag::a, tag::ab, tag::abc, tag::abcd, tag::abcde,
                                  tag::abcdef};
    return memory::desc(d, dt::f32, by_rank[d.size()]);
}

// A memory in layout md holding the plain (row-major) values, through the public reorder.
[[maybe_unused]] memory from_plain(const std::vector<float> &values, const memory::desc &md) {
    const memory::desc pl = plain(md.get_dims());
    memory out(md);
    reorder(pl, md).execute(memory(pl, const_cast<float *>(values.data())), out);
    return out;
}

// The contents of m in the plain layout of its dims.
[[maybe_unused]] std::vector<float> to_plain(const memory &m) {
    const memory::desc pl = plain(m.get_desc().get_dims());
    std::vector<float> out(static_cast<size_t>(pl.nelems_padded()));
    reorder(m.get_desc(), pl).execute(m, memory(pl, out.data()));
    return out;
}

// The JIT instruction sets this run checks (isa_under_test.hpp).
[[maybe_unused]] std::vector<cpu_isa> jit_isas() { return prim_test::jit_isas_under_test(); }

// src1's plain index for src0's plain index i, src1 broadcast against src0 (each of its dims
// src0's or 1): broadcast dims read index 0.
[[maybe_unused]] int64_t broadcast_index(int64_t i, const dims &d0, const dims &d1) {
    int64_t off = 0, stride = 1;
    for (int d = static_cast<int>(d0.size()) - 1; d >= 0; --d) {
        const int64_t c = i % d0[d];
        i /= d0[d];
        if (d1[d] != 1) off += c * stride;
        stride *= d1[d];
    }
    return off;
}

// The number of elements of dims.
[[maybe_unused]] int64_t count(const dims &d) {
    int64_t n = 1;
    for (const auto v : d) n *= v;
    return n;
}

} // namespace
