// Large out-of-place passes (from the streaming threshold of jit/gen/uarch.hpp on, the eltwise pass
// writes dst with non-temporal stores, which fault on a misaligned vector) whose rows are not
// whole vectors: rows of 2049 elements, or 317 x 317 planes. A review found a crash there
// (binary add of 1100x2049 and 1x2049, log-softmax of 1100x2049, softmax over the channels of
// 1x21x513x513); every call's first row must start on a vector boundary for the stores to
// stream, else the pass uses ordinary stores.
#include "api_test_util.hpp"

#include "jit/gen/uarch.hpp"

namespace {

// Rows of row_len elements, enough of them to pass the streaming threshold.
int64_t rows_past_threshold(int64_t row_len) {
    const int64_t bytes = prim::jit::current_uarch().stream_threshold_bytes;
    return bytes / (row_len * 4) + 2;
}

std::vector<float> values(size_t n, unsigned seed) {
    std::mt19937 rng(seed);
    std::vector<float> v(n);
    for (float &x : v) x = static_cast<float>(static_cast<int>(rng() % 65) - 32) / 8.f;
    return v;
}

std::vector<float> run_softmax(const dims &d, int axis, algorithm alg, cpu_isa isa,
                               const std::vector<float> &x, std::string &impl) {
    primitive_attr attr;
    attr.set_max_cpu_isa(isa);
    const softmax_forward::primitive_desc pd(
            softmax_forward::desc(prop_kind::forward_inference, alg, plain(d), plain(d), axis), attr);
    memory src(pd.src_desc(), const_cast<float *>(x.data())), dst(pd.dst_desc());
    softmax_forward(pd).execute({{PRIM_ARG_SRC, src}, {PRIM_ARG_DST, dst}});
    impl = pd.impl_name();
    return to_plain(dst);
}

int64_t far_apart(const std::vector<float> &got, const std::vector<float> &want, double tol) {
    int64_t bad = 0;
    for (size_t i = 0; i < want.size(); ++i)
        bad += !(std::abs(static_cast<double>(got[i]) - want[i]) <= tol * std::max(1.0, std::abs(double(want[i]))));
    return bad;
}

} // namespace

TEST_CASE("binary add with rows of 2049, past the streaming threshold", "[stream]") {
    const int64_t rows = rows_past_threshold(2049);
    const dims d0 = {rows, 2049}, d1 = {1, 2049};
    const auto a = values(static_cast<size_t>(count(d0)), 1), b = values(2049, 2);
    for (cpu_isa isa : jit_isas()) {
        INFO(cpu_isa_name(isa) << ", " << rows << " rows");
        primitive_attr attr;
        attr.set_max_cpu_isa(isa);
        const binary::primitive_desc pd(binary::desc(algorithm::binary_add, plain(d0), plain(d1), plain(d0)), attr);
        memory s0(pd.src0_desc(), const_cast<float *>(a.data())), s1(pd.src1_desc(), const_cast<float *>(b.data()));
        memory dst(pd.dst_desc());
        binary(pd).execute({{PRIM_ARG_SRC_0, s0}, {PRIM_ARG_SRC_1, s1}, {PRIM_ARG_DST, dst}});
        CHECK(pd.impl_name().rfind("jit:", 0) == 0);
        const float *y = data(dst);
        int64_t bad = 0;
        for (int64_t r = 0; r < rows; ++r)
            for (int64_t c = 0; c < 2049; ++c) bad += y[r * 2049 + c] != a[r * 2049 + c] + b[c];
        CHECK(bad == 0);
    }
}

TEST_CASE("softmax with rows of 2049 and planes of 317 x 317, past the streaming threshold",
          "[stream]") {
    const int64_t rows = rows_past_threshold(2049);
    const int64_t channels = rows_past_threshold(317 * 317);
    struct softmax_case {
        dims d;
        int axis;
    };
    const softmax_case cases[] = {{{rows, 2049}, 1}, {{1, channels, 317, 317}, 1}};
    for (const softmax_case &c : cases)
        for (algorithm alg : {algorithm::softmax_accurate, algorithm::softmax_log}) {
            const auto x = values(static_cast<size_t>(count(c.d)), 3);
            std::string ref_impl;
            const auto want = run_softmax(c.d, c.axis, alg, cpu_isa::none, x, ref_impl);
            for (cpu_isa isa : jit_isas()) {
                INFO(cpu_isa_name(isa) << " axis " << c.axis << " of " << c.d.size() << " dims"
                     << (alg == algorithm::softmax_log ? ", log" : ""));
                std::string impl;
                const auto got = run_softmax(c.d, c.axis, alg, isa, x, impl);
                CHECK(impl == std::string("jit:") + cpu_isa_name(isa));
                CHECK(far_apart(got, want, 2e-6) == 0);
            }
        }
}
