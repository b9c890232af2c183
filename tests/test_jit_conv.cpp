// The JIT convolution against the reference kernel (ref_conv_fwd), on both ISAs, over the shapes
// that exercise each path of the kernel: channel tails, padding (with rows and columns that see
// no tap at all), strides, dilations, negative end padding, groups, depthwise, 1D/3D, 1x1, a
// first layer with ic = 3, wide rows (the middle-block loop), and post-ops chains with sums at
// every place. Inputs are small integers, so convolution results are exact and compared with
// threshold 0; chains with transcendental functions get a small relative tolerance. The JIT is
// configured for 512-bit FMA units and, where a test says so, 256-bit ones (narrow oc tails,
// 8-lane kernels for small groups), whatever this CPU has; infinite and NaN inputs check that
// merged groups keep to their own lanes.
#include <catch2/catch.hpp>

#include <cmath>
#include <omp.h>
#include <random>
#include <string>
#include <vector>

#include "common/problem.hpp"
#include "prim/error.hpp"
#include "jit/conv/conv_conf.hpp"
#include "jit/conv/conv_unit_stride.hpp"
#include "isa_under_test.hpp"
#include "jit/gen/cpu_isa_detect.hpp"
#include "jit/gen/uarch.hpp"
#include "jit/conv/jit_convolution.hpp"
#include "jit/gen/kernel_cache.hpp"
#include "prim/memory.hpp"
#include "problem_parse.hpp"
#include "ref/ref_kernels.hpp"

using prim::cpu_isa;
using prim::memory;
using prim::post_ops;
using prim::impl::conv_problem;
using prim::impl::conv_request;

namespace {

// The CPU run_jit() configures the JIT for: this one, but with 512-bit FMA units unless a test
// sets 256 (with_fma_unit_bits), so that both widths' code paths are checked on every machine:
// 256 bits gives AVX-512 kernels 8-lane FMAs for narrow oc tails and AVX2 kernels for small
// merged groups (uarch::fma_unit_bits). (The benchdnn_lite batches run this CPU's own width.)
prim::jit::uarch full_width_uarch() {
    prim::jit::uarch u = prim::jit::current_uarch();
    u.fma_unit_bits = 512;
    return u;
}
prim::jit::uarch test_uarch = full_width_uarch();
struct with_fma_unit_bits {
    explicit with_fma_unit_bits(int bits) : saved(test_uarch.fma_unit_bits) {
        test_uarch.fma_unit_bits = bits;
    }
    ~with_fma_unit_bits() { test_uarch.fma_unit_bits = saved; }
    int saved;
};

// wei_spatial_first: data 'any', weights with the spatial dims outermost (hwio / hwgio), a
// layout the kernel never reads directly.
enum class layouts { any, plain, nhwc, blocked16, wei_spatial_first };

struct buffers {
    std::vector<float> src, wei, bias, dst_old;
};

// Plain-layout dims of the request's tensors.
memory::dims data_dims(const conv_problem &p, int64_t c, const int64_t *sp) {
    memory::dims d = {p.mb, c};
    for (int j = 3 - p.nsp; j < 3; ++j) d.push_back(sp[j]);
    return d;
}
memory::dims wei_dims(const conv_problem &p) {
    memory::dims d;
    if (p.g > 1) d = {p.g, p.ocg(), p.icg()};
    else d = {p.oc, p.ic};
    for (int j = 3 - p.nsp; j < 3; ++j) d.push_back(p.k[j]);
    return d;
}
std::string plain_pattern(size_t rank) {
    std::string s;
    for (size_t i = 0; i < rank; ++i) s += static_cast<char>('a' + i);
    return s;
}
std::string nhwc_pattern(size_t rank) { return "a" + plain_pattern(rank).substr(2) + "b"; }

memory::desc desc_of(const memory::dims &d, const std::string &pattern) {
    return memory::desc(d, memory::data_type::f32, pattern);
}

buffers make_inputs(const conv_problem &p, unsigned seed) {
    std::mt19937 gen(seed);
    std::uniform_int_distribution<int> small(-2, 2);
    auto fill = [&](std::vector<float> &v, int64_t n) {
        v.resize(static_cast<size_t>(n));
        for (float &x : v) x = static_cast<float>(small(gen));
    };
    buffers b;
    fill(b.src, p.mb * p.ic * p.i[0] * p.i[1] * p.i[2]);
    fill(b.wei, p.oc * p.icg() * p.k[0] * p.k[1] * p.k[2]);
    fill(b.bias, p.oc);
    fill(b.dst_old, p.mb * p.oc * p.o[0] * p.o[1] * p.o[2]);
    return b;
}

// Copies between the plain buffer of the test and the layout an implementation chose.
std::vector<float> to_layout(const std::vector<float> &plain, const memory::desc &plain_md,
                             const memory::desc &md) {
    std::vector<float> out(md.get_size() / sizeof(float) + 1, 0.f);
    prim::reorder(plain_md, md).execute(memory(plain_md, const_cast<float *>(plain.data())),
                                        memory(md, out.data()));
    return out;
}
std::vector<float> from_layout(const std::vector<float> &buf, const memory::desc &md,
                               const memory::desc &plain_md) {
    std::vector<float> out(plain_md.get_size() / sizeof(float), 0.f);
    prim::reorder(md, plain_md).execute(memory(md, const_cast<float *>(buf.data())),
                                        memory(plain_md, out.data()));
    return out;
}

// Runs the JIT implementation on plain inputs; returns the plain dst. name: the impl's name.
std::vector<float> run_jit(const conv_problem &p, const buffers &in, const post_ops &po,
                           bool with_bias, cpu_isa isa, layouts lay, std::string &name) {
    const memory::dims sd = data_dims(p, p.ic, p.i), dd = data_dims(p, p.oc, p.o), wd = wei_dims(p);
    const memory::desc src_plain = desc_of(sd, plain_pattern(sd.size()));
    const memory::desc dst_plain = desc_of(dd, plain_pattern(dd.size()));
    const memory::desc wei_plain = desc_of(wd, plain_pattern(wd.size()));
    const memory::desc bias_plain = desc_of({p.oc}, "a");
    const memory::desc any_src(sd, memory::data_type::f32, memory::format_tag::any);
    const memory::desc any_dst(dd, memory::data_type::f32, memory::format_tag::any);
    const memory::desc any_wei(wd, memory::data_type::f32, memory::format_tag::any);

    conv_request req;
    req.prb = p;
    req.with_bias = with_bias;
    req.bias = with_bias ? bias_plain : memory::desc();
    req.attr.set_post_ops(po);
    switch (lay) {
    case layouts::any: req.src = any_src; req.wei = any_wei; req.dst = any_dst; break;
    case layouts::plain: req.src = src_plain; req.wei = wei_plain; req.dst = dst_plain; break;
    case layouts::nhwc:
        req.src = desc_of(sd, nhwc_pattern(sd.size()));
        req.wei = wei_plain;
        req.dst = desc_of(dd, nhwc_pattern(dd.size()));
        break;
    case layouts::wei_spatial_first: {
        const std::string plain = plain_pattern(wd.size());
        const size_t n_sp = static_cast<size_t>(p.nsp);
        const std::string io = plain.substr(0, wd.size() - n_sp); // [g] o i
        std::string pattern = plain.substr(wd.size() - n_sp);     // spatial letters first
        pattern += io.size() == 3 ? std::string{io[0], io[2], io[1]} : std::string{io[1], io[0]};
        req.src = any_src;
        req.wei = desc_of(wd, pattern);
        req.dst = any_dst;
        break;
    }
    case layouts::blocked16: // nChw16c given by the user: direct on AVX-512, repacked on AVX2
        req.src = desc_of(sd, "aB" + plain_pattern(sd.size()).substr(2) + "16b");
        req.wei = any_wei;
        req.dst = desc_of(dd, "aB" + plain_pattern(dd.size()).substr(2) + "16b");
        break;
    }
    std::string why;
    auto impl = prim::impl::create_jit_conv_for(test_uarch, req, isa, why);
    INFO("declined: " << why);
    REQUIRE(impl);
    name = impl->name();
    CHECK(!impl->src_md().is_any());
    const std::vector<float> src = to_layout(in.src, src_plain, impl->src_md());
    const std::vector<float> wei = to_layout(in.wei, wei_plain, impl->wei_md());
    std::vector<float> dst = to_layout(in.dst_old, dst_plain, impl->dst_md());
    prim::impl::exec_ptrs args;
    args.src = src.data();
    args.wei = wei.data();
    args.bias = with_bias ? in.bias.data() : nullptr;
    args.dst = dst.data();
    impl->execute(args);
    return from_layout(dst, impl->dst_md(), dst_plain);
}

bool exact_chain(const post_ops &po) {
    for (const auto &e : po.entries()) {
        if (e.kind == post_ops::kind::sum) continue;
        switch (e.alg) {
        case prim::algorithm::eltwise_relu:
        case prim::algorithm::eltwise_abs:
        case prim::algorithm::eltwise_linear:
        case prim::algorithm::eltwise_clip: continue;
        default: return false;
        }
    }
    return true;
}

// Compares the JIT result with the reference; exact unless the chain is transcendental.
void check_inputs(const std::string &desc, const buffers &in, const std::string &chain, cpu_isa isa,
                  layouts lay = layouts::any, bool with_bias = true) {
    const conv_problem p = bdl::parse_conv_problem(desc);
    const post_ops po = prim::parse_post_ops(chain);
    std::vector<float> ref = in.dst_old;
    prim::impl::ref_conv_fwd(p, in.src.data(), in.wei.data(), with_bias ? in.bias.data() : nullptr,
                             po, ref.data());
    std::string name;
    const std::vector<float> got = run_jit(p, in, po, with_bias, isa, lay, name);
    const bool exact = exact_chain(po);
    int64_t errors = 0;
    size_t first_bad = 0;
    for (size_t i = 0; i < ref.size(); ++i) {
        const float r = ref[i], g = got[i];
        const bool ok = std::isnan(r) ? std::isnan(g)
                : exact ? g == r
                        : std::fabs(g - r) <= 2e-6f * std::max(1.f, std::fabs(r));
        if (!ok && errors++ == 0) first_bad = i;
    }
    INFO(desc << " chain '" << chain << "' isa " << prim::cpu_isa_name(isa) << " FMA units "
              << test_uarch.fma_unit_bits << " bits layouts " << static_cast<int>(lay) << " impl "
              << name << " first bad index " << first_bad
              << " got " << (errors ? got[first_bad] : 0.f) << " want "
              << (errors ? ref[first_bad] : 0.f));
    CHECK(errors == 0);
}

void check_case(const std::string &desc, const std::string &chain, cpu_isa isa,
                layouts lay = layouts::any, bool with_bias = true) {
    check_inputs(desc, make_inputs(bdl::parse_conv_problem(desc), 42), chain, isa, lay, with_bias);
}

std::vector<cpu_isa> isas() { return prim_test::jit_isas_under_test(); }

const char *shapes[] = {
        "mb2ic16ih8oc16oh8kh3ph1",                   // one block, full vectors
        "mb2ic32ih10oc48oh5kh3sh2ph1",               // stride 2, oc 3 blocks on avx512
        "mb2ic17ih9oc33oh9kh3ph1",                   // ic and oc tails
        "mb1ic3ih13oc20oh7kh3sh2ph1",                // first layer: ic = 3
        "mb1ic16ih12oc16oh12kh3ph2dh1",              // dilation
        "mb2ic16ih56oc32oh28kh1sh2",                 // negative end padding (p_end = -1)
        "mb1ic16ih5iw20oc16oh5ow9kh1kw3sw2",         // negative end padding along w
        "mb1ic8ih19oc8oh10kh4sh2ph1",                // asymmetric padding (1 top, 2 bottom)
        "mb1ic8ih4oc12oh8kh3ph3",                    // rows and columns without any tap
        "g2mb2ic32ih8oc64oh8kh3ph1",                 // groups on block boundaries
        "g3mb1ic12ih7oc9oh7kh3ph1",                  // groups with tails: nhwc
        "g8mb2ic16ih6oc16oh6kh3ph1",                 // two channels per group
        "g32mb2ic32ih10oc32oh10kh3ph1",              // depthwise (its own kernel)
        "g20mb2ic20ih9oc20oh9kh3ph1",                // depthwise with a channel tail
        "g40mb1ic40ih11oc40oh6kh3sh2ph1",            // depthwise, stride 2, two blocks + tail
        "g32mb1ic32ih7oc32oh7kh3ph2dh1",             // depthwise, dilation
        "g24mb1ic24iw30oc24ow30kw5pw2",              // depthwise 1D
        "g16mb1ic16id5ih5iw5oc16od5oh5ow5kd3kh3kw3pd1ph1pw1", // depthwise 3D
        "g8mb1ic8ih4oc8oh8kh3ph3",                   // depthwise, rows without any tap
        "g16mb1ic16ih9oc32oh5kh3sh2ph1",             // depthwise with a channel multiplier
        "g72mb1ic72ih7oc72oh7kh3ph1",                // depthwise, short rows: 4 channel blocks
                                                     // per call, then the rest with the tail
        "g12mb1ic12ih5oc12oh5kh3ph1",                // depthwise, AVX2: 2 blocks, the last a tail
        "g28mb1ic28ih5oc28oh5kh3ph1",                // depthwise, AVX2: 2 + 2 blocks with a tail
        "mb2ic16iw20oc24ow20kw3pw1",                 // 1D
        "mb1ic8id5ih6iw7oc16od5oh6ow7kd3kh3kw3pd1ph1pw1", // 3D
        "mb1ic8id4ih4iw4oc8od2oh2ow2kd3kh3kw3sd2sh2sw2pd1ph1pw1dd0", // 3D strided
        "mb2ic64ih14oc64oh14kh1",                    // 1x1: rows merged (7 per kernel row)
        "mb2ic40ih7oc72oh7kh1",                      // 1x1 with tails: one 49-pixel row
        "mb1ic16ih4iw70oc32oh4ow70kh3kw3ph1pw1",     // wide rows: the middle-block loop
        "mb1ic40ih5oc40oh5kh3ph1",                   // several ic blocks plus a tail
        "mb1ic24ih7iw9oc20oh5ow4kh3kw5sh1sw2ph0pw1dh0dw1", // mixed h/w parameters
};

} // namespace

TEST_CASE("jit conv matches the reference on every shape, both ISAs", "[jit_conv]") {
    for (int bits : {512, 256}) {
        const with_fma_unit_bits fma(bits);
        for (cpu_isa isa : isas())
            for (const char *s : shapes) {
                check_case(s, "", isa);
                check_case(s, "sum:0.5+relu", isa);
            }
    }
}

TEST_CASE("jit conv without bias and on plain and nhwc user layouts", "[jit_conv]") {
    for (cpu_isa isa : isas())
        for (const char *s : {"mb2ic17ih9oc33oh9kh3ph1", "g3mb1ic12ih7oc9oh7kh3ph1",
                              "mb1ic8id5ih6iw7oc16od5oh6ow7kd3kh3kw3pd1ph1pw1",
                              "mb2ic16iw20oc24ow20kw3pw1", "g2mb2ic32ih8oc64oh8kh3ph1",
                              "g20mb2ic20ih9oc20oh9kh3ph1", "mb2ic24ih14oc40oh14kh1",
                              "mb1ic16id3ih6iw10oc24od3oh6ow10kd1kh1kw1"}) {
            check_case(s, "relu", isa, layouts::any, false);
            check_case(s, "sum", isa, layouts::plain);
            check_case(s, "sum+relu", isa, layouts::nhwc);
            check_case(s, "sum:2+relu", isa, layouts::blocked16);
        }
}

// 2048 output channels per group or more: gathered on every CPU (uarch::gather_min_oc is 1024,
// 2048 on Zen 4).
const char *gathered_shapes[] = {
        "mb2ic24ih9oc2048oh5kh1sh2",                        // stride in h and w, an ic tail
        "mb1ic16ih4iw11oc2064oh4ow4kh1kw1sw3",              // stride in w only, oc tail
        "mb1ic8id5ih5iw5oc2048od3oh3ow3kd1kh1kw1sd2sh2sw2", // 3D
        "g2mb1ic34ih7oc4112oh4kh1sh2",                      // groups with channel tails (nhwc)
        "g2mb1ic64ih7oc4096oh4kh1sh2",                      // groups on block boundaries
        "mb1ic17ih6oc2049oh3kh1sh2",                        // last input row and column unused
};

memory::desc src_desc(const conv_problem &p, const std::string &pattern) {
    memory::dims d = {p.mb, p.ic};
    for (int sp = 3 - p.nsp; sp < 3; ++sp) d.push_back(p.i[sp]);
    return memory::desc(d, memory::data_type::f32, pattern);
}

TEST_CASE("jit conv: strided 1x1 layers read a gathered copy of their pixels", "[jit_conv]") {
    const prim::jit::uarch &u = prim::jit::current_uarch();
    const prim::jit::unit_stride_src::policy policy {u.gather_min_oc, u.cache_line_bytes, false};
    // The gather is taken (conv_unit_stride.hpp) from gather_min_oc output channels per group
    // on channel-blocked and channels-last src, not below it nor on nchw.
    for (const char *s : gathered_shapes) {
        conv_problem p = bdl::parse_conv_problem(s);
        const std::string nhwc = p.nsp == 3 ? "acdeb" : "acdb";
        const std::string blocked = p.nsp == 3 ? "aBcde16b" : "aBcd16b";
        INFO(s);
        CHECK(prim::jit::unit_stride_src().init(p, src_desc(p, nhwc), policy));
        p = bdl::parse_conv_problem(s);
        CHECK(prim::jit::unit_stride_src().init(p, src_desc(p, blocked), policy));
        p = bdl::parse_conv_problem(s);
        CHECK_FALSE(prim::jit::unit_stride_src().init(p, src_desc(p, p.nsp == 3 ? "abcde" : "abcd"), policy));
    }
    conv_problem narrow = bdl::parse_conv_problem("mb2ic24ih9oc512oh5kh1sh2");
    CHECK_FALSE(prim::jit::unit_stride_src().init(narrow, src_desc(narrow, "aBcd16b"), policy));

    // And the results match the reference, the nchw ones (read in place) too.
    for (cpu_isa isa : isas())
        for (const char *s : gathered_shapes) {
            check_case(s, "sum+relu", isa);
            check_case(s, "sum:0.5", isa, layouts::nhwc);
            check_case(s, "relu", isa, layouts::plain, false);
            check_case(s, "", isa, layouts::blocked16);
        }
}

// A conv_request with the layouts left to the implementation ('any').
conv_request any_request(const std::string &desc) {
    const conv_problem p = bdl::parse_conv_problem(desc);
    const memory::dims sd = data_dims(p, p.ic, p.i), dd = data_dims(p, p.oc, p.o), wd = wei_dims(p);
    conv_request req;
    req.prb = p;
    req.with_bias = true;
    req.bias = desc_of({p.oc}, "a");
    req.src = memory::desc(sd, memory::data_type::f32, memory::format_tag::any);
    req.wei = memory::desc(wd, memory::data_type::f32, memory::format_tag::any);
    req.dst = memory::desc(dd, memory::data_type::f32, memory::format_tag::any);
    return req;
}

TEST_CASE("jit conv: strided 1x1 layers with pixels shorter than a cache line gather when each oc block group re-reads src", "[jit_conv]") {
    // Below gather_min_oc the copy pays only where a pixel's channels fill less than a cache line
    // (8-channel blocks: 32 bytes) and the threading order makes every oc block group re-read
    // all of src (a group's weights beyond the L2 budget).
    using prim::jit::unit_stride_src;
    const unit_stride_src::policy reread {1024, 64, true}, shared {1024, 64, false};
    const char *shape = "mb1ic520ih9oc292oh5kh1sh2";
    conv_problem p = bdl::parse_conv_problem(shape);
    CHECK(unit_stride_src().init(p, src_desc(p, "aBcd8b"), reread));
    CHECK(p.s[2] == 1); // rewritten to read the gathered copy
    p = bdl::parse_conv_problem(shape);
    CHECK_FALSE(unit_stride_src().init(p, src_desc(p, "aBcd8b"), shared));
    CHECK(p.s[2] == 2); // left as it was
    p = bdl::parse_conv_problem(shape);
    CHECK_FALSE(unit_stride_src().init(p, src_desc(p, "aBcd16b"), reread)); // 64-byte pixels
    conv_problem few = bdl::parse_conv_problem("mb1ic12ih9oc64oh5kh1sh2");
    CHECK(unit_stride_src().init(few, src_desc(few, "acdb"), reread));       // 48-byte nhwc pixels
    few = bdl::parse_conv_problem("mb1ic12ih9oc64oh5kh1sh2");
    CHECK_FALSE(unit_stride_src().init(few, src_desc(few, "abcd"), reread)); // nchw: no runs

    // Through the configuration: 520 x 292 weights take 607 KB, beyond half of a 1 MiB L2
    // (oc block groups outermost) but within half of 2 MiB (innermost, src rows shared).
    prim::jit::uarch small_l2, large_l2;
    small_l2.conv_block_weights_bytes = 1024 * 1024;
    small_l2.conv_ocbg_inner_weights_bytes = 512 * 1024;
    large_l2.conv_block_weights_bytes = 2048 * 1024;
    large_l2.conv_ocbg_inner_weights_bytes = 1024 * 1024;
    const conv_request req = any_request(shape);
    prim::jit::conv_setup avx2_small, avx2_large, avx512_small;
    REQUIRE(prim::jit::init_conv_conf(avx2_small, req, cpu_isa::avx2, {}, small_l2).empty());
    REQUIRE(prim::jit::init_conv_conf(avx2_large, req, cpu_isa::avx2, {}, large_l2).empty());
    REQUIRE(prim::jit::init_conv_conf(avx512_small, req, cpu_isa::avx512, {}, small_l2).empty());
    CHECK(avx2_small.unit_stride.enabled());
    CHECK_FALSE(avx2_small.conf.ocbg_inner);
    CHECK_FALSE(avx2_large.unit_stride.enabled());
    CHECK_FALSE(avx512_small.unit_stride.enabled());

    // Results against the reference on both ISAs, with tails (ic 520 = 65 x 8, oc 292 = 36.5 x 8),
    // 3D and stride in w only, several threads splitting the gather (the thread count does not
    // change any result: checked by running with 1 and 3 threads).
    const int saved_threads = omp_get_max_threads();
    for (int threads : {1, 3}) {
        omp_set_num_threads(threads);
        for (cpu_isa isa : isas())
            for (const char *s : {shape, "mb2ic520id3ih5iw5oc300od2oh3ow3kd1kh1kw1sd2sh2sw2",
                                  "mb1ic516ih4iw13oc296oh4ow5kh1kw1sw3"}) {
                check_case(s, "sum+relu", isa);
                check_case(s, "relu:0.5+sum:2", isa, layouts::nhwc);
                check_case(s, "", isa, layouts::blocked16, false);
            }
    }
    omp_set_num_threads(saved_threads);
}

TEST_CASE("jit conv: kernels of one oc block (AVX-512 embedded broadcasts)", "[jit_conv]") {
    // One oc block per call (16 output channels or fewer, or a last oc block group of one block)
    // reads each src value as the FMA's {1to16} operand: every tap skip, dilation, stride,
    // padding, ic tail and oc tail of that path, with sums and chains, against the reference.
    for (cpu_isa isa : isas()) {
        prim::jit::conv_setup one;
        REQUIRE(prim::jit::init_conv_conf(one, any_request("mb1ic32ih112oc16oh112kh1"), isa, {}).empty());
        if (isa == cpu_isa::avx512) CHECK(one.conf.nb_oc == 1);
        for (const char *s : {"mb1ic32ih30oc16oh30kh1", "mb2ic19ih11oc13oh11kh3ph1",
                              "mb1ic16ih12iw31oc16oh5ow14kh3kw5sh2sw2ph1pw2dh1dw1",
                              "mb1ic40ih7oc48oh7kh3ph1", "mb2ic8iw40oc5ow38kw3",
                              "mb1ic17id4ih5iw6oc16od4oh5ow6kd3kh3kw3pd1ph1pw1"}) {
            check_case(s, "sum+relu", isa);
            check_case(s, "clip:0:6", isa, layouts::nhwc, false);
            check_case(s, "relu:0.5+sum:2+linear:2:1", isa, layouts::plain);
        }
    }
}

TEST_CASE("jit conv: one oc block shares each broadcast between the kw taps", "[jit_conv]") {
    // conv_kernel_conf::share_taps: the pixels one input channel's kw taps read are broadcast
    // once each into registers (held_pixels()), beyond the 16 of AVX2 for the 8-lane kernels on
    // an AVX-512 CPU. Every tap skip at the row's ends, stride, dilation, wide kw, ic and oc
    // tail, merged group and 3D shape, against the reference; the cost model must pick the mode
    // for some of them on each ISA, or the test would prove nothing.
    const char *cases[] = {"mb1ic16ih7oc16oh7kh3ph1", "mb2ic8iw40oc5ow38kw3",
                           "mb1ic16ih12iw31oc16oh5ow14kh3kw5sh2sw2ph1pw2dh1dw1",
                           "mb1ic19ih9iw23oc8oh9ow11kh3kw3sw2ph1pw1", "mb1ic8iw9oc8ow13kw3pw3",
                           "mb1ic8iw20oc8ow6kw7sw3pw2dw1", "g32mb1ic256ih6oc256oh6kh3ph1",
                           "g64mb1ic256ih9oc256oh5kh3sh2ph1", "g8mb1ic16iw30oc16ow30kw5pw2",
                           "mb1ic16id3ih4iw9oc16od3oh4ow9kd3kh3kw3pd1ph1pw1"};
    for (int bits : {512, 256})
    for (cpu_isa isa : isas()) {
        const with_fma_unit_bits fma(bits);
        int shared = 0;
        for (const char *s : cases) {
            const conv_request req = any_request(s);
            const cpu_isa kernel_isa = prim::jit::conv_kernel_isa(req.prb, isa, test_uarch);
            prim::jit::conv_setup setup;
            REQUIRE(prim::jit::init_conv_conf(setup, req, kernel_isa, isa, {}, test_uarch).empty());
            shared += setup.conf.share_taps ? 1 : 0;
            if (setup.conf.share_taps) CHECK(setup.conf.nb_oc == 1);
            check_case(s, "sum+relu", isa);
            check_case(s, "gelu_erf", isa, layouts::nhwc, false);
            check_case(s, "relu:0.5+sum:2+linear:2:1", isa, layouts::plain);
            check_case(s, "", isa, layouts::blocked16);
        }
        INFO("FMA units " << bits << " bits, " << prim::cpu_isa_name(isa));
        CHECK(shared > 0);
    }
    // ResNeXt's 32 x 8 layer on the 8-lane kernels of a 256-bit AVX-512 CPU: 14 accumulators
    // and 16 pixels, registers 0-30.
    if (prim_test::under_test(cpu_isa::avx512)) {
        const with_fma_unit_bits fma(256);
        prim::jit::conv_setup setup;
        REQUIRE(prim::jit::init_conv_conf(setup, any_request("g32mb2ic256ih56oc256oh56kh3ph1"),
                                          cpu_isa::avx2, cpu_isa::avx512, {}, test_uarch).empty());
        CHECK(setup.conf.evex);
        CHECK(setup.conf.share_taps);
        CHECK(setup.conf.ur_w == 14);
    }
}

TEST_CASE("jit conv: strided 1x1 layers read in place block for fewer broadcasts", "[jit_conv]") {
    // Their broadcasts share no cache line, so the cost model counts each as two loads
    // (conv_conf.cpp): res3a_branch1 blocks 4 x 3 on AVX2 and 6 x 4 on AVX-512 where the plain
    // count chose 6 x 2 and 14 x 2, and the same layer without the stride keeps those.
    prim::jit::uarch u;
    u.conv_block_weights_bytes = 1024 * 1024;
    u.conv_ocbg_inner_weights_bytes = 512 * 1024;
    prim::jit::conv_setup strided2, strided512, dense2, dense512;
    REQUIRE(prim::jit::init_conv_conf(strided2, any_request("mb2ic256ih56oc512oh28kh1sh2"), cpu_isa::avx2, {}, u).empty());
    REQUIRE(prim::jit::init_conv_conf(strided512, any_request("mb2ic256ih56oc512oh28kh1sh2"), cpu_isa::avx512, {}, u).empty());
    REQUIRE(prim::jit::init_conv_conf(dense2, any_request("mb2ic256ih28oc512oh28kh1"), cpu_isa::avx2, {}, u).empty());
    REQUIRE(prim::jit::init_conv_conf(dense512, any_request("mb2ic256ih28oc512oh28kh1"), cpu_isa::avx512, {}, u).empty());
    REQUIRE_FALSE(strided2.unit_stride.enabled());
    CHECK((strided2.conf.ur_w == 4 && strided2.conf.nb_oc == 3));
    CHECK((strided512.conf.ur_w == 6 && strided512.conf.nb_oc == 4));
    CHECK(dense512.conf.nb_oc == 2);
    CHECK(dense2.conf.ur_w * dense2.conf.nb_oc == 12);
    // Those blockings with row tails, oc tails and strides in one or both dims, on both ISAs.
    for (cpu_isa isa : isas())
        for (const char *s : {"mb2ic40ih21oc72oh11kh1sh2", "mb1ic24ih9iw28oc100oh9ow10kh1kw1sw3",
                              "mb1ic33ih28oc520oh14kh1sh2"}) {
            check_case(s, "sum+relu", isa);
            check_case(s, "relu:0.5+sum:2", isa, layouts::nhwc, false);
        }
}

TEST_CASE("jit conv: AVX-512 leaves a long chain spares for two interleaved accumulators", "[jit_conv][avx512]") {
    // post_ops_injector::interleaved_aux_vecs_count: an entry of 2 or more spares (exp-based
    // swish: 3) gets twice them beside the accumulators, a cheap chain only what it needs.
    const auto accumulators = [](const char *chain) {
        conv_request req = any_request("mb2ic64ih56oc256oh56kh1");
        req.attr.set_post_ops(prim::parse_post_ops(chain));
        prim::jit::kernel_chain_needs needs;
        needs.batch_per_call = true;
        const prim::jit::kernel_chain_plan plan
                = prim::jit::plan_kernel_chain(cpu_isa::avx512, req.attr.get_post_ops(), req.dst, needs);
        REQUIRE(plan.why_not.empty());
        prim::jit::conv_setup s;
        REQUIRE(prim::jit::init_conv_conf(s, req, cpu_isa::avx512, plan).empty());
        return s.conf.ur_w * s.conf.nb_oc;
    };
    CHECK(accumulators("sum+relu") == 28);
    CHECK(accumulators("swish") <= 32 - 2 * 3);
    CHECK(accumulators("sum+elu:0.5+abs+sqrt+soft_relu:1+logistic+exp+swish:1") <= 32 - 2 * 3);
    for (const char *s : {"mb2ic64ih15oc256oh15kh1", "mb1ic24ih9oc40oh9kh3ph1"}) {
        check_case(s, "swish", cpu_isa::avx512);
        check_case(s, "sum+elu:0.5+abs+sqrt+soft_relu:1+logistic+exp+swish:1", cpu_isa::avx512,
                   layouts::nhwc);
    }
}

TEST_CASE("jit conv: small groups merged into vector-wide ones", "[jit_conv]") {
    // conv_merged_groups.hpp: r = W / channels-per-group neighbouring groups become one group
    // with block-diagonal weights (AVX-512: 8 -> r 2, 4 -> r 4, 2 -> r 8; AVX2: 4 -> r 2). With
    // 256-bit FMA units, AVX2 kernels run them (conv_kernel_isa()).
    for (int bits : {512, 256})
    for (cpu_isa isa : isas())
        for (const char *s : {"g32mb1ic256ih7oc256oh7kh3ph1", "g4mb2ic16ih5oc16oh5kh3ph1",
                              "g8mb1ic16ih9oc16oh5kh3sh2ph1", "g6mb1ic24ih5oc24oh5kh3ph1",
                              "g16mb1ic64id3ih4iw4oc64od3oh4ow4kd3kh3kw3pd1ph1pw1",
                              "g2mb1ic16iw20oc16ow20kw3pw1"}) {
            const with_fma_unit_bits fma(bits);
            check_case(s, "sum+relu", isa);
            check_case(s, "sum:0.5+gelu_erf", isa, layouts::nhwc);
            check_case(s, "relu", isa, layouts::plain, false);
            check_case(s, "", isa, layouts::blocked16);
            check_case(s, "sum", isa, layouts::wei_spatial_first);
        }
}

TEST_CASE("jit conv: an infinite or NaN input stays in its own group", "[jit_conv]") {
    // Merged groups multiply every input channel by a whole vector of weights, zero outside its
    // group: inf * 0 would put NaN into the other groups' outputs. Each group's outputs must be
    // the reference's: infinite or NaN where their own inputs are, finite elsewhere.
    for (int bits : {512, 256})
    for (cpu_isa isa : isas())
        for (const char *s : {"g4mb1ic16ih5oc16oh5kh3ph1", "g8mb1ic16ih5oc16oh5kh1",
                              "g2mb1ic16ih5oc16oh5kh3ph1", "g32mb1ic256ih6oc256oh6kh3ph1",
                              "g16mb1ic64ih5iw7oc64oh5ow7kh1kw3pw1",
                              "g4mb1ic16ih5iw12oc16oh5ow12kh1kw5pw2"}) {
            const with_fma_unit_bits fma(bits);
            const conv_problem p = bdl::parse_conv_problem(s);
            buffers in = make_inputs(p, 7);
            const int64_t plane = p.i[0] * p.i[1] * p.i[2];
            in.src[1 * plane + 3] = INFINITY;         // image 0, channel 1 (group 0)
            in.src[6 * plane + 2] = -INFINITY;        // channel 6
            in.src[(p.ic - 1) * plane] = NAN;         // the last group's last channel
            for (const char *chain : {"", "relu", "sum"}) {
                check_inputs(s, in, chain, isa);
                check_inputs(s, in, chain, isa, layouts::blocked16);
            }
        }
}

TEST_CASE("jit conv applies post-ops chains in registers", "[jit_conv]") {
    const char *chains[] = {
            "sum+relu+abs",                                            // sum first
            "relu:0.5+sum:2+linear:2:1",                               // sum in the middle
            "relu+abs+sum:0.5",                                        // sum last
            "sum+relu+sum:3",                                          // two sums
            "linear:0.5:-3+clip:-4:6:2+sum:-1",                        // scales
            "elu:0.5+sum+abs+sqrt+soft_relu:1+logistic+exp+swish:1",   // the 8-entry chain
            "gelu_erf+sum:0.25",
            "tanh+logistic+sum+mish",
    };
    for (cpu_isa isa : isas())
        for (const char *s : {"mb2ic17ih9oc33oh9kh3ph1", "mb2ic64ih14oc64oh14kh1",
                              "g3mb1ic12ih7oc9oh7kh3ph1", "mb1ic16ih4iw70oc32oh4ow70kh3kw3ph1pw1",
                              "g20mb2ic20ih9oc20oh9kh3ph1"})
            for (const char *ch : chains) {
                check_case(s, ch, isa);
                const with_fma_unit_bits fma(256);
                check_case(s, ch, isa);
            }
}

TEST_CASE("jit conv results do not depend on the thread count", "[jit_conv]") {
    const conv_problem p = bdl::parse_conv_problem("mb1ic40ih13oc40oh13kh3ph1");
    const buffers in = make_inputs(p, 7);
    // Non-integer inputs, so a different summation order would show.
    buffers f = in;
    for (float &x : f.src) x *= 0.37f;
    for (float &x : f.wei) x *= 0.11f;
    const post_ops po = prim::parse_post_ops("sum+gelu_tanh");
    for (cpu_isa isa : isas()) {
        std::string name;
        const int saved = omp_get_max_threads();
        omp_set_num_threads(1);
        const std::vector<float> one = run_jit(p, f, po, true, isa, layouts::any, name);
        omp_set_num_threads(2);
        const std::vector<float> two = run_jit(p, f, po, true, isa, layouts::any, name);
        omp_set_num_threads(3);
        const std::vector<float> three = run_jit(p, f, po, true, isa, layouts::any, name);
        omp_set_num_threads(saved);
        CHECK(one == two);
        CHECK(one == three);
    }
}

TEST_CASE("jit conv reports blocked layouts for 'any' and names repacking", "[jit_conv]") {
    for (cpu_isa isa : isas()) {
        const int W = isa == cpu_isa::avx512 ? 16 : 8;
        const std::string w = std::to_string(W);
        const conv_problem p = bdl::parse_conv_problem("mb2ic64ih14oc64oh14kh3ph1");
        conv_request req;
        req.prb = p;
        req.src = memory::desc({2, 64, 14, 14}, memory::data_type::f32, memory::format_tag::any);
        req.dst = req.src;
        req.wei = memory::desc({64, 64, 3, 3}, memory::data_type::f32, memory::format_tag::any);
        std::string why;
        auto impl = prim::impl::create_jit_conv(req, isa, why);
        REQUIRE(impl);
        CHECK(impl->src_md().layout() == "aBcd" + w + "b");
        CHECK(impl->dst_md().layout() == "aBcd" + w + "b");
        CHECK(impl->wei_md().layout() == "ABcd" + w + "b" + w + "a");
        CHECK(impl->name() == std::string("jit:") + prim::cpu_isa_name(isa));

        req.wei = memory::desc({64, 64, 3, 3}, memory::data_type::f32, memory::format_tag::oihw);
        req.dst = memory::desc({2, 64, 14, 14}, memory::data_type::f32, memory::format_tag::nchw);
        impl = prim::impl::create_jit_conv(req, isa, why);
        REQUIRE(impl);
        CHECK(impl->name() == std::string("jit:") + prim::cpu_isa_name(isa) + "+repack");
    }
    for (cpu_isa isa : isas()) { // depthwise: channels on lanes, weights blocked by channel
        const std::string w = isa == cpu_isa::avx512 ? "16" : "8";
        conv_request req;
        req.prb = bdl::parse_conv_problem("g32mb2ic32ih10oc32oh10kh3ph1");
        req.src = memory::desc({2, 32, 10, 10}, memory::data_type::f32, memory::format_tag::any);
        req.dst = req.src;
        req.wei = memory::desc({32, 1, 1, 3, 3}, memory::data_type::f32, memory::format_tag::any);
        std::string why;
        auto impl = prim::impl::create_jit_conv(req, isa, why);
        REQUIRE(impl);
        CHECK(impl->src_md().layout() == "aBcd" + w + "b");
        CHECK(impl->wei_md().layout() == "Abcde" + w + "a");
    }
    if (prim_test::under_test(cpu_isa::avx512)) {
        // 256-bit FMA units: 32 groups of 8 on the 8-lane kernels, in the 16-channel blocks of
        // the AVX-512 layers around them (two groups a block), read and written without copies.
        const with_fma_unit_bits fma(256);
        conv_request req = any_request("g32mb2ic256ih14oc256oh14kh3ph1");
        std::string why;
        auto impl = prim::impl::create_jit_conv_for(test_uarch, req, cpu_isa::avx512, why);
        REQUIRE(impl);
        CHECK(impl->name() == "jit:avx2");
        CHECK(impl->src_md().layout() == "aBcd16b");
        CHECK(impl->dst_md().layout() == "aBcd16b");
        req.src = req.dst = memory::desc({2, 256, 14, 14}, memory::data_type::f32, "aBcd8b");
        impl = prim::impl::create_jit_conv_for(test_uarch, req, cpu_isa::avx512, why);
        REQUIRE(impl);
        CHECK(impl->name() == "jit:avx2"); // its own blocks too
    }
    std::string why;
    conv_request req;
    req.prb = bdl::parse_conv_problem("mb2ic16ih8oc16oh8kh3ph1");
    CHECK_FALSE(prim::impl::create_jit_conv(req, cpu_isa::none, why));
    CHECK(why.find("avx2") != std::string::npos);
}

TEST_CASE("jit conv: equal layers share kernels through the cache", "[jit_conv]") {
    for (cpu_isa isa : isas()) {
        conv_request req;
        req.prb = bdl::parse_conv_problem("mb2ic24ih9oc40oh9kh3ph1");
        req.src = memory::desc({2, 24, 9, 9}, memory::data_type::f32, memory::format_tag::any);
        req.dst = memory::desc({2, 40, 9, 9}, memory::data_type::f32, memory::format_tag::any);
        req.wei = memory::desc({40, 24, 3, 3}, memory::data_type::f32, memory::format_tag::any);
        req.attr.set_post_ops(prim::parse_post_ops("sum:0.25+tanh"));
        std::string why;
        REQUIRE(prim::impl::create_jit_conv(req, isa, why));
        const auto before = prim::jit::kernel_cache::instance().stats();
        REQUIRE(prim::impl::create_jit_conv(req, isa, why));
        const auto after = prim::jit::kernel_cache::instance().stats();
        CHECK(after.misses == before.misses);
        CHECK(after.hits > before.hits);
        // A different chain parameter is a different kernel.
        req.attr.set_post_ops(prim::parse_post_ops("sum:0.5+tanh"));
        REQUIRE(prim::impl::create_jit_conv(req, isa, why));
        CHECK(prim::jit::kernel_cache::instance().stats().misses > after.misses);
    }
}

TEST_CASE("jit conv: planar tensors whose channel planes pass 32-bit offsets stay JIT",
          "[jit_conv]") {
    // nchw src with 5800x5800 planes: 134.6 MB between channels, beyond what a 32-bit
    // displacement reached for W channels; the kernel steps between channels with adds and
    // between ic blocks with 64-bit adds instead (it used to fall back to the reference).
    for (cpu_isa isa : isas()) check_case("mb1ic2ih5800oc16oh725kh1sh8ph0", "sum+relu", isa, layouts::plain);
}

TEST_CASE("jit conv: a 2 GiB channel block of a planar src", "[.long][jit_conv]") {
    // 16 channels of 134.6 MB: the ic loop's n_ic steps exceed a 32-bit immediate, so the
    // pointers are restored from the stack. About 7 GB of memory; run with PRIM_LONG_TESTS.
    for (cpu_isa isa : isas()) check_case("mb1ic16ih5800oc16oh725kh1sh8ph0", "relu", isa, layouts::plain);
}

TEST_CASE("jit conv: layers differing in one field get their own kernels", "[jit_conv]") {
    // Shapes that differ from the first in one field each: padding, stride, dilation, width,
    // channels, bias, layout. Each needs a kernel of its own.
    const char *shapes[] = {"mb2ic16ih9oc16oh9kh3ph1", "mb2ic16ih9iw9oc16oh9ow7kh3kw3ph1pw0",
                            "mb2ic16ih9oc16oh5kh3sh2ph1", "mb2ic16ih9oc16oh7kh3ph1dh1",
                            "mb2ic16ih9iw10oc16oh9ow10kh3kw3ph1pw1", "mb2ic24ih9oc16oh9kh3ph1"};
    for (cpu_isa isa : isas()) {
        std::string why;
        auto misses = [] { return prim::jit::kernel_cache::instance().stats().misses; };
        auto request = [](const char *shape, bool bias, memory::format_tag tag) {
            conv_request req;
            req.prb = bdl::parse_conv_problem(shape);
            const conv_problem &p = req.prb;
            req.src = memory::desc(data_dims(p, p.ic, p.i), memory::data_type::f32, tag);
            req.dst = memory::desc(data_dims(p, p.oc, p.o), memory::data_type::f32, tag);
            req.wei = memory::desc(wei_dims(p), memory::data_type::f32, memory::format_tag::any);
            req.with_bias = bias;
            if (bias) req.bias = memory::desc({p.oc}, memory::data_type::f32, memory::format_tag::x);
            // A chain no other test uses, so that the kernels are new to the cache here.
            req.attr.set_post_ops(prim::parse_post_ops("linear:1.25:0.375"));
            return req;
        };
        for (const char *shape : shapes) {
            REQUIRE(prim::impl::create_jit_conv(request(shape, false, memory::format_tag::any), isa, why));
            const long before = misses();
            REQUIRE(prim::impl::create_jit_conv(request(shape, false, memory::format_tag::any), isa, why));
            CHECK(misses() == before); // the same layer again: the cached kernel
            REQUIRE(prim::impl::create_jit_conv(request(shape, true, memory::format_tag::any), isa, why));
            CHECK(misses() > before); // with bias
            const long with_bias = misses();
            REQUIRE(prim::impl::create_jit_conv(request(shape, false, memory::format_tag::nhwc), isa, why));
            CHECK(misses() > with_bias); // nhwc strides
        }
        // The batch is the threading loops' business: another minibatch shares the kernels.
        REQUIRE(prim::impl::create_jit_conv(request("mb2ic16ih9oc16oh9kh3ph1", false, memory::format_tag::any), isa, why));
        const long before_mb = misses();
        REQUIRE(prim::impl::create_jit_conv(request("mb7ic16ih9oc16oh9kh3ph1", false, memory::format_tag::any), isa, why));
        CHECK(misses() == before_mb);
    }
}

TEST_CASE("jit conv matches the reference on random shapes", "[jit_conv]") {
    // Fixed seed: random groups, channels, sizes, strides, dilations and paddings (start and
    // end, the end possibly negative), 1D to 3D, with a chain that has a sum in the middle.
    std::mt19937 gen(2026);
    auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(gen); };
    int tested = 0;
    for (int t = 0; t < 60; ++t) {
        const int nsp = pick(1, 3);
        const int g = pick(0, 3) == 0 ? pick(2, 4) : 1;
        // Fields in the canonical order of doc/reference.md §3: i, o, k, s, p, d per dim in use.
        std::string f[6];
        const char *names[3] = {"d", "h", "w"};
        for (int j = 3 - nsp; j < 3; ++j) {
            const int k = pick(1, j == 2 ? 5 : 3), s = pick(1, 3), dil = pick(0, 1);
            const int ext = (k - 1) * (dil + 1) + 1;
            const int p = pick(0, ext - 1), i = std::max(ext, pick(1, nsp == 3 ? 7 : 25));
            const int o = (i + 2 * p - ext) / s + 1;
            const std::string n = names[j];
            const int v[6] = {i, o, k, s, p, dil};
            const char *what[6] = {"i", "o", "k", "s", "p", "d"};
            for (int q = 0; q < 6; ++q) f[q] += what[q] + n + std::to_string(v[q]);
        }
        const std::string d = "g" + std::to_string(g) + "mb" + std::to_string(pick(1, 2)) + "ic"
                + std::to_string(g * pick(1, 20)) + f[0] + "oc" + std::to_string(g * pick(1, 40))
                + f[1] + f[2] + f[3] + f[4] + f[5];
        try {
            bdl::parse_conv_problem(d);
        } catch (const prim::error &) {
            continue; // an invalid combination (e.g. end padding too negative)
        }
        ++tested;
        for (cpu_isa isa : isas()) check_case(d, "relu:0.5+sum:2+abs", isa);
    }
    CHECK(tested >= 40);
}
