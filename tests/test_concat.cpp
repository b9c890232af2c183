// The concat primitive through the public API: the copy path (inputs in dst's dense layout,
// axis not blocked) and the reference (any mix of layouts) against plain loops, on 1 to 5 dims,
// every axis, plain / channels-last / blocked / strided inputs, deduced and given dst, empty
// inputs, and bad input with its messages (each naming the input's index).
#include "api_test_util.hpp"

namespace {

memory::desc layout(const dims &d, const std::string &pattern) {
    return memory::desc(d, dt::f32, pattern);
}

// Distinct values per input, so a misplaced element is seen.
std::vector<float> values(int64_t n, int input) {
    std::vector<float> v(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) v[static_cast<size_t>(i)] = static_cast<float>(input * 100000 + i);
    return v;
}

// The plain concatenation of plain inputs along axis.
std::vector<float> plain_concat(const std::vector<dims> &ds, const std::vector<std::vector<float>> &xs,
                                int axis) {
    int64_t outer = 1;
    for (int i = 0; i < axis; ++i) outer *= ds[0][i];
    std::vector<float> out;
    for (int64_t o = 0; o < outer; ++o)
        for (size_t k = 0; k < ds.size(); ++k) {
            const int64_t chunk = count(ds[k]) / outer;
            out.insert(out.end(), xs[k].begin() + o * chunk, xs[k].begin() + (o + 1) * chunk);
        }
    return out;
}

struct result {
    std::vector<float> got, want;
    std::string impl;
};

// Concat of inputs ds in layouts lays (one per input) into dst (pattern, or "" for deduced).
result run_concat(const std::vector<dims> &ds, const std::vector<std::string> &lays, int axis,
                  const std::string &dst_lay) {
    std::vector<memory::desc> mds;
    std::vector<std::vector<float>> xs;
    for (size_t k = 0; k < ds.size(); ++k) {
        mds.push_back(layout(ds[k], lays[k]));
        xs.push_back(values(count(ds[k]), static_cast<int>(k) + 1));
    }
    dims dd = ds[0];
    dd[static_cast<size_t>(axis)] = 0;
    for (const dims &d : ds) dd[static_cast<size_t>(axis)] += d[static_cast<size_t>(axis)];
    const concat::primitive_desc pd = dst_lay.empty()
            ? concat::primitive_desc(axis, mds)
            : concat::primitive_desc(layout(dd, dst_lay), axis, mds);
    CHECK(pd.dst_desc().get_dims() == dd);
    exec_args args;
    for (size_t k = 0; k < ds.size(); ++k) {
        CHECK(pd.src_desc(static_cast<int>(k)) == mds[k]);
        args[PRIM_ARG_MULTIPLE_SRC + static_cast<int>(k)] = from_plain(xs[k], mds[k]);
    }
    memory dst(pd.dst_desc());
    std::fill(data(dst), data(dst) + pd.dst_desc().nelems_padded(), -1.f); // padding must be zeroed
    args[PRIM_ARG_DST] = dst;
    concat(pd).execute(args);
    result r {to_plain(dst), plain_concat(ds, xs, axis), pd.impl_name()};
    // A blocked dst's padding holds zeros afterwards, as after a reorder.
    const memory::desc &md = pd.dst_desc();
    if (md.padded_dims() != md.get_dims()) {
        int64_t nonzero = 0;
        std::vector<float> raw(data(dst), data(dst) + md.nelems_padded());
        std::vector<bool> used(raw.size(), false);
        std::vector<memory::dim> idx(dd.size(), 0);
        for (int64_t e = 0; e < count(dd); ++e) {
            int64_t rest = e;
            for (int k = static_cast<int>(dd.size()) - 1; k >= 0; --k) {
                idx[k] = rest % dd[k];
                rest /= dd[k];
            }
            used[static_cast<size_t>(md.offset(idx.data()))] = true;
        }
        for (size_t i = 0; i < raw.size(); ++i) nonzero += !used[i] && raw[i] != 0.f;
        CHECK(nonzero == 0);
    }
    return r;
}

} // namespace

TEST_CASE("concat: same dense layout takes the copy path, every rank and axis", "[concat]") {
    struct case_t {
        std::vector<dims> ds;
        const char *lay;
        int axis;
    };
    const case_t cases[] = {
            {{{7}, {1}, {33}}, "a", 0},
            {{{3, 5}, {3, 17}}, "ab", 1},
            {{{3, 5}, {4, 5}, {1, 5}}, "ab", 0},
            {{{2, 3, 5, 5}, {2, 6, 5, 5}}, "abcd", 1},
            {{{2, 3, 5, 5}, {2, 6, 5, 5}}, "acdb", 1},        // channels last: short chunks
            {{{2, 16, 5, 3}, {2, 16, 2, 3}}, "aBcd16b", 2},   // blocked, axis not blocked
            {{{2, 19, 5, 3}, {1, 19, 5, 3}}, "aBcd8b", 0},    // padded channel block
            {{{2, 3, 2, 2, 4}, {2, 3, 2, 2, 1}, {2, 3, 2, 2, 9}}, "abcde", 4},
            {{{300, 70}, {300, 90}}, "ab", 1},                // many rows, threads over them
            {{{1, 40000}, {1, 30000}}, "ab", 1},              // one long chunk each: split
            {{{2, 0, 3}, {2, 4, 3}}, "abc", 1},               // an empty input
    };
    for (const case_t &c : cases) {
        INFO(c.lay << " axis " << c.axis << " inputs " << c.ds.size());
        const std::vector<std::string> lays(c.ds.size(), c.lay);
        for (const std::string &dst : {std::string(), std::string(c.lay)}) {
            const result r = run_concat(c.ds, lays, c.axis, dst);
            CHECK(r.impl == "copy");
            CHECK(r.got == r.want);
        }
    }
}

TEST_CASE("concat: mixed layouts and blocked axes run on the reference", "[concat]") {
    struct case_t {
        std::vector<dims> ds;
        std::vector<std::string> lays;
        int axis;
        const char *dst;
    };
    const case_t cases[] = {
            {{{2, 3, 5, 5}, {2, 6, 5, 5}}, {"abcd", "acdb"}, 1, ""},
            {{{2, 3, 5, 5}, {2, 6, 5, 5}}, {"abcd", "abcd"}, 1, "acdb"},
            {{{2, 3, 4, 5}, {2, 13, 4, 5}}, {"aBcd8b", "abcd"}, 1, ""},  // blocked axis, padded
            {{{2, 16, 4, 5}, {2, 16, 4, 5}}, {"aBcd16b", "aBcd16b"}, 1, ""},
            {{{3, 4, 2}, {3, 4, 7}}, {"cba", "acb"}, 2, "abc"},
    };
    for (const case_t &c : cases) {
        INFO(c.lays[0] << "+" << c.lays[1] << " axis " << c.axis << " dst '" << c.dst << "'");
        const result r = run_concat(c.ds, c.lays, c.axis, c.dst);
        CHECK(r.impl == "ref");
        CHECK(r.got == r.want);
    }
    // A strided input (a view with gaps) beside a dense one.
    std::vector<float> big(4 * 10, -7.f);
    for (int r = 0; r < 4; ++r)
        for (int c = 0; c < 3; ++c) big[r * 10 + c] = static_cast<float>(r * 3 + c);
    const memory::desc strided({4, 3}, dt::f32, dims {10, 1});
    const concat::primitive_desc pd(1, {strided, plain({4, 2})});
    memory dst(pd.dst_desc());
    const std::vector<float> two = {100, 101, 102, 103, 104, 105, 106, 107};
    concat(pd).execute({{PRIM_ARG_MULTIPLE_SRC, memory(strided, big.data())},
                        {PRIM_ARG_MULTIPLE_SRC + 1, from_plain(two, plain({4, 2}))},
                        {PRIM_ARG_DST, dst}});
    const std::vector<float> want = {0, 1, 2, 100, 101, 3, 4, 5, 102, 103,
                                     6, 7, 8, 104, 105, 9, 10, 11, 106, 107};
    CHECK(to_plain(dst) == want);
}

TEST_CASE("concat: bad input is refused with the reason", "[concat][bad_input]") {
    const memory::desc a = plain({2, 3, 4}), b = plain({2, 5, 4});
    CHECK_INVALID(concat::primitive_desc(1, {}), "no inputs");
    CHECK_INVALID(concat::primitive_desc(3, {a, b}), "axis 3 is out of range");
    CHECK_INVALID(concat::primitive_desc(-1, {a, b}), "axis -1 is out of range");
    CHECK_INVALID(concat::primitive_desc(1, {a, plain({2, 5})}), "src 1 2x5 has rank 2");
    CHECK_INVALID(concat::primitive_desc(1, {a, b, plain({2, 5, 3})}),
                  "src 2 2x5x3 differs from src 0 2x3x4 in dim 2 (3 vs 4)");
    CHECK_INVALID(concat::primitive_desc(0, {a, b}), "src 1 2x5x4 differs from src 0 2x3x4 in dim 1");
    CHECK_INVALID(concat::primitive_desc(1, {a, memory::desc()}), "src 1 desc is empty");
    CHECK_INVALID(concat::primitive_desc(1, {a, memory::desc({2, 5, 4}, dt::f32, tag::any)}),
                  "src 1 desc is 'any'");
    CHECK_INVALID(concat::primitive_desc(plain({2, 9, 4}), 1, {a, b}),
                  "dst dims 2x9x4 differ from the concatenated dims 2x8x4");
    primitive_attr attr;
    attr.set_post_ops(parse_post_ops("relu"));
    CHECK_INVALID(concat::primitive_desc(1, {a, b}, attr), "post-ops are not supported");

    const concat::primitive_desc pd(1, {a, b});
    memory x(a), y(b), z(pd.dst_desc());
    CHECK_INVALID(concat(pd).execute({{PRIM_ARG_MULTIPLE_SRC, x}, {PRIM_ARG_DST, z}}),
                  "src 1 (PRIM_ARG_MULTIPLE_SRC + 1) argument is missing");
    CHECK_INVALID(concat(pd).execute({{PRIM_ARG_MULTIPLE_SRC, x}, {PRIM_ARG_MULTIPLE_SRC + 1, y}}),
                  "concat --axis=1 2x3x4:2x5x4: dst argument is missing");
    CHECK_INVALID(concat(pd).execute({{PRIM_ARG_MULTIPLE_SRC, y}, {PRIM_ARG_MULTIPLE_SRC + 1, y},
                                      {PRIM_ARG_DST, z}}),
                  "src 0 (PRIM_ARG_MULTIPLE_SRC + 0) memory desc");
    CHECK_INVALID(concat(pd).execute({{PRIM_ARG_MULTIPLE_SRC, memory(a, data(z))},
                                      {PRIM_ARG_MULTIPLE_SRC + 1, y}, {PRIM_ARG_DST, z}}),
                  "dst and src 0 overlap");
    CHECK(pd.src_desc(2).is_zero());
}
