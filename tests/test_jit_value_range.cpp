// Ranges through a chain (src/jit/inject/value_range.hpp): the range value_range_after() gives holds
// every result the JIT kernel computes from inputs in the given range, and a chain whose
// emitters left out clamps and flushes because of those ranges gives, bit for bit, what its
// entries give one kernel at a time (each entry alone knows nothing of its inputs), and the
// ranges do leave code out.
#include <catch2/catch.hpp>

#include <cfloat>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "eltwise_test_util.hpp"
#include "isa_under_test.hpp"
#include "jit/gen/cpu_isa_detect.hpp"
#include "jit/inject/value_range.hpp"

using namespace prim;
using namespace prim::jit;

namespace {

std::vector<cpu_isa> jit_isas() { return prim_test::jit_isas_under_test(); }

std::vector<float> run(cpu_isa isa, const post_ops &chain, const std::vector<float> &in) {
    return isa == cpu_isa::avx512 ? eltwise_test::run_eltwise_kernel<cpu_isa::avx512>(chain, in)
                                  : eltwise_test::run_eltwise_kernel<cpu_isa::avx2>(chain, in);
}

// Inputs in [lo, hi]: its ends, an even spread, a spread by magnitude, and the special values
// it holds.
std::vector<float> inputs_in(double lo, double hi) {
    std::vector<float> v;
    const auto add = [&](double x) {
        const float f = static_cast<float>(x);
        if (f >= lo && f <= hi) v.push_back(f);
    };
    add(lo);
    add(hi);
    if (std::isfinite(lo) && std::isfinite(hi))
        for (int k = 0; k <= 400; ++k) add(lo + (hi - lo) * k / 400);
    for (double m = 1e-38; m < 1e38; m *= 1.7) {
        add(m);
        add(-m);
    }
    for (double s : {0.0, -0.0, 1.0, -1.0, 87.5, -87.5, 88.8, -88.8, 1e30, -1e30})
        add(s);
    for (float s : {FLT_MAX, -FLT_MAX, FLT_MIN, -FLT_MIN, INFINITY, -INFINITY}) add(s);
    return v;
}

bool same_bits_or_both_nan(float a, float b) {
    if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
    return std::memcmp(&a, &b, sizeof(a)) == 0;
}

} // namespace

TEST_CASE("value_range_after bounds the JIT's results of each entry", "[jit][value_range]") {
    struct entry_case {
        algorithm alg;
        float alpha, beta, scale;
    };
    using a = algorithm;
    const entry_case entries[] = {{a::eltwise_identity, 0, 0, 1}, {a::eltwise_relu, 0, 0, 1},
            {a::eltwise_relu, 0.1f, 0, 1}, {a::eltwise_clip, -0.5f, 1.5f, 1},
            {a::eltwise_clip_v2, 0, 6, -2}, {a::eltwise_linear, 2, 0.5f, 1},
            {a::eltwise_linear, -2, 0.5f, 1}, {a::eltwise_exp, 0, 0, 1}, {a::eltwise_exp, 0, 0, 0.5f},
            {a::eltwise_logistic, 0, 0, 1}, {a::eltwise_tanh, 0, 0, 1}, {a::eltwise_softsign, 0, 0, 1},
            {a::eltwise_soft_relu, 1, 0, 1}, {a::eltwise_soft_relu, 0.7f, 0, 1},
            {a::eltwise_soft_relu, -1.5f, 0, 1}, {a::eltwise_softplus, 2, 0, 1},
            // a tiny alpha: the kernel's flush of e^-|alpha x|, divided by alpha, is an
            // absolute error of up to e^-87 / |alpha|
            {a::eltwise_soft_relu, 0x1p-32f, 0, 1}, {a::eltwise_softplus, -0x1p-32f, 0, 1},
            {a::eltwise_logsigmoid, 0, 0, 1}, {a::eltwise_elu, 0.5f, 0, 1},
            {a::eltwise_hardsigmoid, 0.2f, 0.5f, 1}, {a::eltwise_scaled_tanh, 1.5f, -2, 1},
            {a::eltwise_abs, 0, 0, 1}, {a::eltwise_square, 0, 0, 1}, {a::eltwise_sqrt, 0, 0, 1},
            {a::eltwise_log, 0, 0, 1}, {a::eltwise_round, 0, 0, 3}};
    const value_range ranges[] = {{}, {-100, -50}, {-3, 2}, {0, 5}, {0.5, 1}, {1e-30, 1e30},
            {-1e-3, 1e-3}, {87, 95}, {-INFINITY, -1}, {2, INFINITY},
            {-90 * 0x1p32, -87.5 * 0x1p32}, {87.5 * 0x1p32, 90 * 0x1p32}};
    for (const cpu_isa isa : jit_isas())
        for (const entry_case &c : entries) {
            post_ops chain;
            chain.append_eltwise(c.alg, c.alpha, c.beta, c.scale);
            for (const value_range &in : ranges) {
                const value_range out = value_range_after(chain.entries()[0], in);
                const std::vector<float> x = inputs_in(in.lo, in.hi);
                const std::vector<float> y = run(isa, chain, x);
                size_t i = 0;
                while (i < x.size() && (std::isnan(y[i]) || (y[i] >= out.lo && y[i] <= out.hi))) ++i;
                if (i == x.size()) continue;
                INFO(algorithm_name(c.alg) << ":" << c.alpha << ":" << c.beta << ":" << c.scale
                     << " on [" << in.lo << ", " << in.hi << "], isa " << static_cast<int>(isa)
                     << ": x = " << x[i] << " gives " << y[i] << ", outside [" << out.lo << ", "
                     << out.hi << "]");
                FAIL();
            }
        }
}

TEST_CASE("value_range_after knows nothing after a sum, a binary entry or a runtime parameter",
          "[jit][value_range]") {
    const value_range unit = {0, 1};
    for (const char *s : {"sum", "add:f32:per_oc", "prelu", "relu:*", "exp:0:0:*", "swish", "gelu_erf",
                          "pow:1:2", "relu:-0.5", "linear:inf"}) {
        const post_ops chain = parse_post_ops(s);
        const value_range out = value_range_after(chain.entries()[0], unit);
        INFO(s);
        CHECK(out.lo == -INFINITY);
        CHECK(out.hi == INFINITY);
    }
    // and something when it can: logistic of [0, 1] is in [0.5, 0.74] (widened)
    const value_range l = value_range_after(parse_post_ops("logistic").entries()[0], unit);
    CHECK(l.lo > 0.49);
    CHECK(l.hi < 0.74);
}

TEST_CASE("a chain gives bit for bit what its entries give one at a time", "[jit][value_range]") {
    std::vector<float> in;
    for (int i = -60000; i <= 60000; ++i) in.push_back(i * 5e-4f);     // [-30, 30]
    for (int i = -4000; i <= 4000; ++i) in.push_back(88.f + i * 1e-3f); // exp's overflow
    for (int i = -4000; i <= 4000; ++i) in.push_back(-87.f + i * 1e-3f); // and flush
    for (float s : {0.f, -0.f, FLT_MIN, -FLT_MIN, 1e-40f, -1e-40f, 1e-30f, -1e-30f, 1e20f, -1e20f,
                    FLT_MAX, -FLT_MAX, INFINITY, -INFINITY, NAN, -88 * 0x1p32f, 88 * 0x1p32f})
        in.push_back(s);
    for (double m = 1e-38; m < 3e38; m *= 1.01) { // every magnitude
        in.push_back(static_cast<float>(m));
        in.push_back(static_cast<float>(-m));
    }
    // Chains whose later entries get a range that leaves out a clamp or a flush (and a few
    // whose ranges leave out nothing).
    const char *chains[] = {"abs+sqrt+soft_relu:1+logistic+exp+swish:1",
            "elu:0.5+abs+sqrt+soft_relu:1+logistic+exp+swish:1", "logistic+exp", "tanh+exp",
            "clip:-80:80+exp", "clip:-80:80:0.5+exp", "clip:-200:200+exp", "relu+soft_relu",
            "relu+linear:-1:-0.5+logsigmoid", "logistic+gelu_erf", "clip:-100:-50+swish:2",
            "abs+mish", "softsign+soft_relu:0.7", "logistic+swish:-0.5", "exp+logistic",
            "clip_v2:0:6+soft_relu:2+exp:0:0:0.01", "linear:0.01:0+exp",
            // soft_relu with a tiny alpha returns 0 where the reference is tiny: a later log
            // makes it -inf, which the ranges must have allowed for
            "clip:-386547056640:-375809638400+soft_relu:2.3283064365386963e-10+log+exp",
            "clip:-386547056640:-375809638400+soft_relu:2.3283064365386963e-10+log+logistic",
            "clip:375809638400:386547056640+softplus:-2.3283064365386963e-10+linear:-1+log+exp",
            // expm1's clamps: tanh's own (+-10) and elu's (-86, 89)
            "logistic+tanh", "clip:-12:9+tanh", "clip:-3:3+scaled_tanh:1.5:4", "clip:-3:3+scaled_tanh:2:-2",
            "clip:-80:80+elu:0.5", "logistic+selu", "clip:-40:40+celu:-1.5", "clip:-100:100+elu",
            // exp kept from overflow by the range (AVX2 then adds n to the exponent field):
            // up to e^88.4 (n = 128 with p < 1), with and without the flush at the low end
            "clip:-86.4:88.4+exp", "clip:-90:88.4+exp", "clip:-88.4:100+logistic",
            "clip:-88.4:100+swish:1",
            // elu's alpha joins expm1's exponent only where the entry alone would do the same:
            // scales below 0.5 keep the multiplication (their results below FLT_MIN round twice)
            "clip:-80:80+elu:0.125", "tanh+elu:0.0625", "clip:-3:3+elu:0.03125",
            "clip:-80:80+elu:0.25", "clip:-80:0+elu:4"};
    for (const cpu_isa isa : jit_isas())
        for (const char *s : chains) {
            const post_ops chain = parse_post_ops(s);
            const std::vector<float> fused = run(isa, chain, in);
            std::vector<float> stepwise = in;
            for (const post_ops::entry &e : chain.entries()) {
                post_ops one;
                one.append_eltwise(e.alg, e.alpha, e.beta, e.scale);
                stepwise = run(isa, one, stepwise);
            }
            size_t i = 0;
            while (i < in.size() && same_bits_or_both_nan(fused[i], stepwise[i])) ++i;
            if (i == in.size()) continue;
            INFO(s << ", isa " << static_cast<int>(isa) << ": x = " << in[i] << " fused "
                   << fused[i] << ", one at a time " << stepwise[i]);
            FAIL();
        }
}

TEST_CASE("a range that keeps exp clear of its clamps leaves them out", "[jit][value_range]") {
    // Pairs of chains that differ only in the bounds of the first entry: within [-80, 80] exp
    // needs no clamp and no flush, within [-200, 200] it needs both; likewise swish's exp;
    // soft_relu needs no max(x, 0) for x >= 0; tanh no clamp to +-10 within it, elu no expm1
    // clamp within [-85.5, 88.5].
    for (const cpu_isa isa : jit_isas()) {
        const auto code_size = [isa](const char *chain) -> size_t {
            const post_ops po = parse_post_ops(chain);
            if (isa == cpu_isa::avx512) {
                eltwise_kernel<cpu_isa::avx512> k(eltwise_kernel_conf(), po);
                k.create_kernel();
                return k.code_size();
            }
            eltwise_kernel<cpu_isa::avx2> k(eltwise_kernel_conf(), po);
            k.create_kernel();
            return k.code_size();
        };
        INFO("isa " << static_cast<int>(isa));
        CHECK(code_size("clip:-80:80+exp") < code_size("clip:-200:200+exp"));
        CHECK(code_size("clip:-1:1+swish") < code_size("clip:-1000:1000+swish"));
        CHECK(code_size("clip:0:1000+soft_relu") < code_size("clip:-1:1000+soft_relu"));
        CHECK(code_size("clip:-5:5+tanh") < code_size("clip:-50:50+tanh"));
        CHECK(code_size("clip:-80:80+elu") < code_size("clip:-100:100+elu"));
    }
}
