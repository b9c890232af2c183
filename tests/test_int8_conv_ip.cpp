// int8 convolution and inner product through the public API (doc/int8.md), against an oracle
// written here from the contract's formulas alone (integer accumulation in int64, then the f32
// steps in double): every data type combination, oneDNN 2.x output scales and v3 scales, zero
// points common and per channel, padding (which is the real 0), strides, dilation, groups,
// depthwise, 1D/2D/3D, plain, channels-last and blocked layouts, sums with zero points and
// types, binary operands of every type, saturation. An s32 dst with no scales and no chain is
// bit-exact; any other integer dst within +-1 (the contract), f32 within 1e-6 of the output's
// largest magnitude.
#include "api_test_util.hpp"

#include <map>

namespace {

// A problem of this file: one convolution (ip: kernel = input, no padding) and its quantization.
struct qcase {
    int64_t mb = 2, g = 1, ic = 8, oc = 8;
    dims in = {6, 7}, k = {3, 3}, stride = {1, 1}, dil = {0, 0}, pad_l = {1, 1}, pad_r = {1, 1};
    dt src_dt = dt::u8, wei_dt = dt::s8, bias_dt = dt::f32, dst_dt = dt::u8; // bias undef: none
    std::string layout = "plain"; // plain, nhwc (channels last), blocked (aBcd16b style)
    bool ip = false;
    // Quantization: oneDNN 2.x output scales or v3 scales; zero points; -1 = not set.
    bool v2 = false;
    int oscale_mask = -1, wei_scale_mask = -1, src_scale_mask = -1, dst_scale_mask = -1;
    int src_zp_mask = -1, dst_zp_mask = -1;
    std::string chain;

    int nsp() const { return static_cast<int>(in.size()); }
    dims out() const {
        dims o;
        for (int i = 0; i < nsp(); ++i)
            o.push_back((in[i] + pad_l[i] + pad_r[i] - ((k[i] - 1) * (dil[i] + 1) + 1)) / stride[i] + 1);
        return o;
    }
};

float rnd_uniform(std::mt19937 &gen, int lo, int hi) {
    return static_cast<float>(std::uniform_int_distribution<int>(lo, hi)(gen));
}

// The range of values benchdnn fills a type with for int8 (reaching the saturation bounds).
std::pair<int, int> fill_range(dt t) {
    switch (t) {
    case dt::u8: return {0, 255};
    case dt::s8: return {-128, 127};
    case dt::s32: return {-1000, 1000};
    default: return {-8, 8};
    }
}

// A buffer of logical values (row-major, plain) and a memory holding them in a given desc.
struct tensor {
    dims d;
    dt type;
    std::vector<float> v; // logical values, plain row-major
    memory mem;
};

std::string pattern_of(const std::string &layout, int rank, bool weights, bool grouped) {
    std::string p;
    for (int i = 0; i < rank; ++i) p += static_cast<char>('a' + i);
    if (layout == "plain" || rank < 3) return p;
    if (weights) {
        // o and i blocked: (g)OIhw4i16o4i style kept simple: OIhw16i16o / gOIhw16i16o.
        const int o = grouped ? 1 : 0, i = o + 1;
        std::string q = p;
        q[o] = static_cast<char>(std::toupper(q[o]));
        q[i] = static_cast<char>(std::toupper(q[i]));
        return layout == "blocked" ? q + "16" + p[i] + "16" + p[o] : p;
    }
    if (layout == "nhwc") return std::string("a") + p.substr(2) + "b";
    std::string q = p;
    q[1] = 'B';
    return q + "16b";
}

// Fills t's values in [lo, hi] and stores them into a memory of pattern (through a plain
// memory and prim::reorder, which converts nothing: the types match).
void make(tensor &t, const dims &d, dt type, const std::string &pattern, std::mt19937 &gen) {
    t.d = d;
    t.type = type;
    int64_t n = 1;
    for (auto x : d) n *= x;
    const auto [lo, hi] = fill_range(type);
    t.v.resize(static_cast<size_t>(n));
    for (auto &x : t.v) x = rnd_uniform(gen, lo, hi);
    std::string plain;
    for (size_t i = 0; i < d.size(); ++i) plain += static_cast<char>('a' + i);
    memory src(memory::desc(d, dt::f32, plain));
    if (!t.v.empty()) // an mb0 tensor has no buffer
        std::memcpy(src.get_data_handle(), t.v.data(), t.v.size() * sizeof(float));
    t.mem = memory(memory::desc(d, type, pattern));
    reorder(src.get_desc(), t.mem.get_desc()).execute(src, t.mem);
}

// The values of a memory as f32, plain row-major.
std::vector<float> values_of(const memory &m) {
    std::string plain;
    for (int i = 0; i < m.get_desc().ndims(); ++i) plain += static_cast<char>('a' + i);
    memory out(memory::desc(m.get_desc().get_dims(), dt::f32, plain));
    reorder(m.get_desc(), out.get_desc()).execute(m, out);
    const float *p = static_cast<const float *>(out.get_data_handle());
    return std::vector<float>(p, p + out.get_desc().nelems_padded());
}

double saturate_round(double x, dt t) {
    const auto bounds = [&]() -> std::pair<double, double> {
        switch (t) {
        case dt::u8: return {0, 255};
        case dt::s8: return {-128, 127};
        default: return {-2147483648.0, 2147483520.0};
        }
    }();
    if (std::isnan(x)) return 0;
    return std::nearbyint(std::min(std::max(x, bounds.first), bounds.second));
}

struct result {
    std::vector<float> got, want;
    bool exact = false; // s32 dst, no scales, no chain
};

result run_case(const qcase &c, uint32_t seed) {
    std::mt19937 gen(seed);
    const int nsp = c.nsp();
    const dims od = c.out();
    dims sdims = {c.mb, c.ic}, ddims = {c.mb, c.oc}, wdims;
    for (auto x : c.in) sdims.push_back(x);
    if (c.ip) {
        wdims = {c.oc, c.ic};
        for (auto x : c.in) wdims.push_back(x);
        ddims = {c.mb, c.oc};
    } else {
        if (c.g > 1) wdims = {c.g, c.oc / c.g, c.ic / c.g};
        else wdims = {c.oc, c.ic};
        for (auto x : c.k) wdims.push_back(x);
        for (auto x : od) ddims.push_back(x);
    }
    const int rank = static_cast<int>(sdims.size());
    tensor src, wei, bias, dst;
    make(src, sdims, c.src_dt, pattern_of(c.layout, rank, false, false), gen);
    make(wei, wdims, c.wei_dt, pattern_of(c.layout, static_cast<int>(wdims.size()), true, c.g > 1), gen);
    const bool with_bias = c.bias_dt != dt::undef;
    if (with_bias) make(bias, {c.oc}, c.bias_dt, "a", gen);
    make(dst, ddims, c.dst_dt, pattern_of(c.layout, static_cast<int>(ddims.size()), false, false), gen);

    primitive_attr attr;
    post_ops po = parse_post_ops(c.chain);
    attr.set_post_ops(po);
    std::vector<float> oscale(static_cast<size_t>(c.oc)), wscale(static_cast<size_t>(c.oc));
    for (auto &s : oscale) s = 1.f / static_cast<float>(std::uniform_int_distribution<int>(64, 4096)(gen));
    for (auto &s : wscale) s = static_cast<float>(std::uniform_int_distribution<int>(1, 16)(gen)) / 64.f;
    const float src_scale = 0.25f, dst_scale = 8.f;
    std::vector<int32_t> src_zp(static_cast<size_t>(c.ic)), dst_zp(static_cast<size_t>(c.oc));
    for (auto &z : src_zp) z = std::uniform_int_distribution<int>(-5, 130)(gen);
    for (auto &z : dst_zp) z = std::uniform_int_distribution<int>(-3, 9)(gen);
    exec_args args;
    const auto value_mem = [&](int id, dt type, int64_t count, const void *data) {
        memory m(memory::desc({count}, type, tag::x));
        std::memcpy(m.get_data_handle(), data, static_cast<size_t>(count) * 4);
        args[id] = m;
    };
    if (c.oscale_mask >= 0) {
        attr.set_output_scales(c.oscale_mask, {PRIM_RUNTIME_F32_VAL});
        value_mem(PRIM_ARG_ATTR_OUTPUT_SCALES, dt::f32, c.oscale_mask ? c.oc : 1, oscale.data());
    }
    if (c.src_scale_mask >= 0) {
        attr.set_scales_mask(PRIM_ARG_SRC, 0);
        value_mem(PRIM_ARG_ATTR_SCALES | PRIM_ARG_SRC, dt::f32, 1, &src_scale);
    }
    if (c.wei_scale_mask >= 0) {
        attr.set_scales_mask(PRIM_ARG_WEIGHTS, c.wei_scale_mask);
        value_mem(PRIM_ARG_ATTR_SCALES | PRIM_ARG_WEIGHTS, dt::f32, c.wei_scale_mask ? c.oc : 1, wscale.data());
    }
    if (c.dst_scale_mask >= 0) {
        attr.set_scales_mask(PRIM_ARG_DST, 0);
        value_mem(PRIM_ARG_ATTR_SCALES | PRIM_ARG_DST, dt::f32, 1, &dst_scale);
    }
    if (c.src_zp_mask >= 0) {
        attr.set_zero_points_mask(PRIM_ARG_SRC, c.src_zp_mask);
        value_mem(PRIM_ARG_ATTR_ZERO_POINTS | PRIM_ARG_SRC, dt::s32, c.src_zp_mask ? c.ic : 1, src_zp.data());
    }
    if (c.dst_zp_mask >= 0) {
        attr.set_zero_points_mask(PRIM_ARG_DST, c.dst_zp_mask);
        value_mem(PRIM_ARG_ATTR_ZERO_POINTS | PRIM_ARG_DST, dt::s32, c.dst_zp_mask ? c.oc : 1, dst_zp.data());
    }
    // Binary operands: filled as their type, read by the oracle as f32 values.
    std::map<int, tensor> operands;
    for (int i = 0; i < po.len(); ++i) {
        const post_ops::entry &e = po.entries()[i];
        if (e.kind != post_ops::kind::binary) continue;
        dims odims = ddims;
        for (int d = 0; d < static_cast<int>(odims.size()); ++d)
            if (!((e.mask >> d) & 1)) odims[d] = 1;
        const dt t = e.dt == dt::undef ? dt::f32 : e.dt;
        tensor &op = operands[i];
        std::string plain;
        for (size_t j = 0; j < odims.size(); ++j) plain += static_cast<char>('a' + j);
        make(op, odims, t, plain, gen);
    }

    args[PRIM_ARG_SRC] = src.mem;
    args[PRIM_ARG_WEIGHTS] = wei.mem;
    if (with_bias) args[PRIM_ARG_BIAS] = bias.mem;
    if (c.ip) {
        const inner_product_forward::primitive_desc ipd(
                inner_product_forward::desc(prop_kind::forward_inference, src.mem.get_desc(),
                                            wei.mem.get_desc(), with_bias ? bias.mem.get_desc() : memory::desc(),
                                            dst.mem.get_desc()), attr);
        for (auto &[i, op] : operands) {
            const memory::desc want = ipd.query_md(PRIM_ARG_ATTR_MULTIPLE_POST_OP(i) | PRIM_ARG_SRC_1);
            memory m(want);
            reorder(op.mem.get_desc(), want).execute(op.mem, m);
            args[PRIM_ARG_ATTR_MULTIPLE_POST_OP(i) | PRIM_ARG_SRC_1] = m;
        }
        args[PRIM_ARG_DST] = dst.mem;
        inner_product_forward(ipd).execute(args);
    } else {
        dims strides = c.stride, dil = c.dil;
        const convolution_forward::primitive_desc cpd(
                convolution_forward::desc(prop_kind::forward_inference, algorithm::convolution_direct,
                                          src.mem.get_desc(), wei.mem.get_desc(),
                                          with_bias ? bias.mem.get_desc() : memory::desc(),
                                          dst.mem.get_desc(), strides, dil, c.pad_l, c.pad_r), attr);
        for (auto &[i, op] : operands) {
            const memory::desc want = cpd.query_md(PRIM_ARG_ATTR_MULTIPLE_POST_OP(i) | PRIM_ARG_SRC_1);
            memory m(want);
            reorder(op.mem.get_desc(), want).execute(op.mem, m);
            args[PRIM_ARG_ATTR_MULTIPLE_POST_OP(i) | PRIM_ARG_SRC_1] = m;
        }
        args[PRIM_ARG_DST] = dst.mem;
        convolution_forward(cpd).execute(args);
    }

    // The oracle.
    result r;
    r.got = values_of(dst.mem);
    r.exact = c.dst_dt == dt::s32 && c.oscale_mask < 0 && c.src_scale_mask < 0 && c.wei_scale_mask < 0
            && c.dst_scale_mask < 0 && c.dst_zp_mask < 0 && po.len() == 0;
    const int64_t icg = c.ic / c.g, ocg = c.oc / c.g;
    int64_t osp = 1, isp = 1, ksp = 1;
    for (auto x : od) osp *= x;
    for (auto x : c.in) isp *= x;
    for (auto x : c.k) ksp *= x;
    if (c.ip) osp = 1;
    r.want.resize(static_cast<size_t>(c.mb * c.oc * osp));
    for (int64_t n = 0; n < c.mb; ++n)
    for (int64_t o = 0; o < c.oc; ++o)
    for (int64_t p = 0; p < osp; ++p) {
        int64_t acc = 0;
        const int64_t g = o / ocg;
        if (c.ip) {
            for (int64_t i = 0; i < c.ic; ++i)
                for (int64_t s = 0; s < isp; ++s) {
                    const int64_t zp = c.src_zp_mask < 0 ? 0 : src_zp[c.src_zp_mask ? i : 0];
                    acc += (static_cast<int64_t>(src.v[(n * c.ic + i) * isp + s]) - zp)
                            * static_cast<int64_t>(wei.v[(o * c.ic + i) * isp + s]);
                }
        } else {
            // Output position p, taps t: the input position per spatial dim.
            int64_t pos[3] = {0, 0, 0}, rest = p;
            for (int d = nsp - 1; d >= 0; --d) {
                pos[d] = rest % od[d];
                rest /= od[d];
            }
            for (int64_t i = 0; i < icg; ++i)
                for (int64_t t = 0; t < ksp; ++t) {
                    int64_t tap[3] = {0, 0, 0}, tr = t, in_off = 0;
                    bool inside = true;
                    for (int d = nsp - 1; d >= 0; --d) {
                        tap[d] = tr % c.k[d];
                        tr /= c.k[d];
                    }
                    for (int d = 0; d < nsp; ++d) {
                        const int64_t x = pos[d] * c.stride[d] - c.pad_l[d] + tap[d] * (c.dil[d] + 1);
                        inside = inside && x >= 0 && x < c.in[d];
                        in_off = in_off * c.in[d] + x;
                    }
                    if (!inside) continue; // padding: the real 0, (zp - zp) * w
                    const int64_t ci = g * icg + i;
                    const int64_t zp = c.src_zp_mask < 0 ? 0 : src_zp[c.src_zp_mask ? ci : 0];
                    acc += (static_cast<int64_t>(src.v[(n * c.ic + ci) * isp + in_off]) - zp)
                            * static_cast<int64_t>(wei.v[(o * icg + i) * ksp + t]);
                }
        }
        const double b = with_bias ? bias.v[o] : 0.0;
        double x;
        if (c.oscale_mask >= 0) x = (static_cast<double>(acc) + b) * oscale[c.oscale_mask ? o : 0];
        else {
            const double s = (c.src_scale_mask >= 0 ? src_scale : 1.0)
                    * (c.wei_scale_mask >= 0 ? wscale[c.wei_scale_mask ? o : 0] : 1.0);
            x = static_cast<double>(acc) * s + b;
        }
        const int64_t di = (n * c.oc + o) * osp + p;
        for (int i = 0; i < po.len(); ++i) {
            const post_ops::entry &e = po.entries()[i];
            switch (e.kind) {
            case post_ops::kind::sum: {
                double old = dst.v[di];
                if (e.dt == dt::s8 && c.dst_dt == dt::u8 && old >= 128) old -= 256;
                if (e.dt == dt::u8 && c.dst_dt == dt::s8 && old < 0) old += 256;
                x += e.scale * (old - e.zero_point);
                break;
            }
            case post_ops::kind::eltwise:
                REQUIRE((e.alg == algorithm::eltwise_relu || e.alg == algorithm::eltwise_linear));
                x = e.alg == algorithm::eltwise_relu ? (x > 0 ? x : e.alpha * x) : e.alpha * x + e.beta;
                x *= e.scale;
                break;
            case post_ops::kind::binary: {
                const tensor &op = operands.at(i);
                int64_t off = 0, idx = di;
                std::vector<int64_t> coord(ddims.size());
                for (int d = static_cast<int>(ddims.size()) - 1; d >= 0; --d) {
                    coord[d] = idx % ddims[d];
                    idx /= ddims[d];
                }
                for (size_t d = 0; d < ddims.size(); ++d) off = off * op.d[d] + (op.d[d] == 1 ? 0 : coord[d]);
                REQUIRE((e.alg == algorithm::binary_add || e.alg == algorithm::binary_mul));
                x = e.alg == algorithm::binary_add ? x + op.v[off] : x * op.v[off];
                break;
            }
            default: FAIL("unexpected entry");
            }
        }
        if (c.dst_scale_mask >= 0) x /= dst_scale;
        if (c.dst_zp_mask >= 0) x += dst_zp[c.dst_zp_mask ? o : 0];
        r.want[di] = static_cast<float>(c.dst_dt == dt::f32 ? x : saturate_round(x, c.dst_dt));
    }
    return r;
}

void check(const qcase &c, uint32_t seed = 1) {
    const result r = run_case(c, seed);
    REQUIRE(r.got.size() == r.want.size());
    int64_t bad = 0;
    // f32: the chain's terms cancel (an s32 operand of 1000 added to a scaled accumulator), so
    // the tolerance follows the output's largest magnitude M, as the contract's ONNX rule does.
    double largest = 1.0;
    for (float w : r.want) largest = std::max(largest, std::fabs(static_cast<double>(w)));
    for (size_t i = 0; i < r.got.size(); ++i) {
        const double tol = r.exact ? 0.0 : c.dst_dt == dt::f32 ? 1e-6 * largest : 1.0;
        if (!(std::fabs(static_cast<double>(r.got[i]) - r.want[i]) <= tol)) {
            if (bad < 3)
                UNSCOPED_INFO("element " << i << ": got " << r.got[i] << ", want " << r.want[i]);
            ++bad;
        }
    }
    CHECK(bad == 0);
}

} // namespace

TEST_CASE("int8 convolution: every data type combination", "[int8][conv]") {
    for (dt s : {dt::u8, dt::s8})
        for (dt d : {dt::u8, dt::s8, dt::s32, dt::f32})
            for (dt b : {dt::f32, dt::s32, dt::undef}) {
                qcase c;
                c.src_dt = s;
                c.dst_dt = d;
                c.bias_dt = b;
                c.oscale_mask = 2;
                INFO(data_type_name(s) << ":s8:" << data_type_name(d) << " bias " << data_type_name(b));
                check(c);
            }
}

TEST_CASE("int8 convolution: s32 dst without scales is exact", "[int8][conv]") {
    qcase c;
    c.dst_dt = dt::s32;
    c.bias_dt = dt::undef;
    c.ic = c.oc = 64; // sums of 576 products of up to 255 * 128: well past 2^24
    c.in = {5, 5};
    check(c);
    c.src_dt = dt::s8;
    c.src_zp_mask = 2;
    check(c);
}

TEST_CASE("int8 convolution: scales, zero points and chains", "[int8][conv]") {
    qcase c;
    SECTION("2.x output scales, common") { c.oscale_mask = 0; }
    SECTION("v3 scales, weights per oc") {
        c.src_scale_mask = 0;
        c.wei_scale_mask = 1;
        c.dst_scale_mask = 0;
    }
    SECTION("v3 scales, weights common") {
        c.src_scale_mask = 0;
        c.wei_scale_mask = 0;
    }
    SECTION("zero points common") {
        c.oscale_mask = 2;
        c.src_zp_mask = 0;
        c.dst_zp_mask = 0;
    }
    SECTION("zero points per channel, padding is the real 0") {
        c.oscale_mask = 2;
        c.src_zp_mask = 2;
        c.dst_zp_mask = 2;
        c.pad_l = {2, 1};
        c.pad_r = {2, 0};
    }
    SECTION("sum with scale, zero point, and as s8") {
        c.oscale_mask = 2;
        c.chain = "sum:0.5:3+relu:0.25+sum:2:-7:s8+linear:1.5:-4";
    }
    SECTION("binary operands of every type") {
        c.oscale_mask = 2;
        c.dst_dt = dt::f32;
        c.chain = "add:u8:per_oc+mul:s8+add:s32:per_tensor+add:f32:per_oc";
    }
    SECTION("the oneDNN documentation's chain, requantized") {
        c.src_scale_mask = 0;
        c.wei_scale_mask = 1;
        c.dst_scale_mask = 0;
        c.dst_zp_mask = 0;
        c.chain = "linear:0.5:2+sum:0.25:4+linear:3:-1";
    }
    check(c);
}

TEST_CASE("int8 convolution: shapes", "[int8][conv]") {
    qcase c;
    c.oscale_mask = 2;
    c.src_zp_mask = 0;
    SECTION("strided, dilated, asymmetric padding") {
        c.in = {9, 11};
        c.stride = {2, 3};
        c.dil = {1, 0};
        c.pad_l = {2, 1};
        c.pad_r = {1, 0};
    }
    SECTION("groups") {
        c.g = 2;
        c.ic = 6;
        c.oc = 10;
    }
    SECTION("depthwise") {
        c.g = c.ic = c.oc = 24;
        c.src_zp_mask = 2;
    }
    SECTION("1D") {
        c.in = {13};
        c.k = {3};
        c.stride = {2};
        c.dil = {0};
        c.pad_l = {1};
        c.pad_r = {1};
    }
    SECTION("3D") {
        c.in = {4, 5, 6};
        c.k = {2, 3, 3};
        c.stride = {1, 2, 1};
        c.dil = {0, 0, 1};
        c.pad_l = {0, 1, 2};
        c.pad_r = {1, 1, 2};
    }
    SECTION("channels last") { c.layout = "nhwc"; }
    SECTION("blocked, channels not a multiple of the block") {
        c.layout = "blocked";
        c.ic = 19;
        c.oc = 21;
        c.chain = "sum:1:5+relu";
    }
    SECTION("mb0") { c.mb = 0; }
    check(c);
}

TEST_CASE("int8 convolution: saturation reaches both bounds", "[int8][conv]") {
    qcase c;
    c.oscale_mask = 0; // a scale near 1/ic*k*k: values spread over and past [0, 255]
    c.chain = "linear:64:-32";
    check(c, 7);
    c.dst_dt = dt::s8;
    check(c, 8);
}

TEST_CASE("int8 inner product", "[int8][ip]") {
    qcase c;
    c.ip = true;
    c.in = {3, 2};
    c.pad_l = c.pad_r = {0, 0};
    c.k = c.in;
    SECTION("u8:s8:f32, v3 scales, gelu-free chain") {
        c.dst_dt = dt::f32;
        c.src_scale_mask = 0;
        c.wei_scale_mask = 1;
        c.chain = "relu+add:u8:per_oc";
    }
    SECTION("s8:s8:s8, output scales per oc, zero points") {
        c.src_dt = dt::s8;
        c.dst_dt = dt::s8;
        c.oscale_mask = 2;
        c.src_zp_mask = 2;
        c.dst_zp_mask = 0;
        c.chain = "sum:0.5:-2";
    }
    SECTION("2D src, s32 dst exact") {
        c.in = {};
        c.k = {};
        c.stride = c.dil = c.pad_l = c.pad_r = {};
        c.ic = 300;
        c.dst_dt = dt::s32;
        c.bias_dt = dt::undef;
    }
    check(c);
}

TEST_CASE("int8 convolution and inner product: PRIM_VERBOSE shows the data types",
          "[int8][verbose]") {
    // The exec line's IMPL field is followed by the types (contract §6); checked through the
    // primitive_desc's impl name here and by the ctest entry that greps the line.
    const memory::desc src({1, 16, 4, 4}, dt::u8, tag::nhwc), wei({16, 16, 1, 1}, dt::s8, tag::any),
            dst({1, 16, 4, 4}, dt::u8, tag::any);
    convolution_forward::primitive_desc pd(convolution_forward::desc(prop_kind::forward_inference,
            algorithm::convolution_direct, src, wei, dst, {1, 1}, {0, 0}, {0, 0}, {0, 0}));
    CHECK(pd.dst_desc().get_data_type() == dt::u8);
    CHECK(pd.weights_desc().get_data_type() == dt::s8);
}

TEST_CASE("int8: bad input is refused with a message naming the problem", "[int8][bad_input]") {
    const auto conv = [](dt s, dt w, dt d, const primitive_attr &attr = primitive_attr(),
                         dt b = dt::undef) {
        const memory::desc src({1, 8, 4, 4}, s, tag::nchw), wei({8, 8, 3, 3}, w, tag::oihw),
                dst({1, 8, 4, 4}, d, tag::nchw),
                bias = b == dt::undef ? memory::desc() : memory::desc({8}, b, tag::x);
        convolution_forward::primitive_desc(convolution_forward::desc(prop_kind::forward_inference,
                algorithm::convolution_direct, src, wei, bias, dst, {1, 1}, {0, 0}, {1, 1}, {1, 1}), attr);
    };
    CHECK_INVALID(conv(dt::u8, dt::u8, dt::u8), "weights data type u8 must be s8 with a u8 src");
    CHECK_INVALID(conv(dt::s32, dt::s8, dt::u8), "src data type s32 is not one of f32, u8, s8");
    CHECK_INVALID(conv(dt::f32, dt::s8, dt::f32), "with an f32 src, weights and dst must be f32 too");
    CHECK_INVALID(conv(dt::u8, dt::s8, dt::u8, primitive_attr(), dt::u8), "bias data type u8 must be f32 or s32");
    primitive_attr a;
    a.set_scales_mask(PRIM_ARG_SRC, 2);
    CHECK_INVALID(conv(dt::u8, dt::s8, dt::u8, a), "src scales mask 2 must be 0");
    primitive_attr zp_f32;
    zp_f32.set_zero_points_mask(PRIM_ARG_SRC, 0);
    CHECK_INVALID(conv(dt::f32, dt::f32, dt::f32, zp_f32), "supported in int8 inference only");
    primitive_attr wzp;
    wzp.set_zero_points_mask(PRIM_ARG_WEIGHTS, 0);
    CHECK_INVALID(conv(dt::u8, dt::s8, dt::u8, wzp), "weights zero points are not supported");
    primitive_attr mixed;
    mixed.set_output_scales(0, {0.5f});
    mixed.set_scales_mask(PRIM_ARG_WEIGHTS, 0);
    CHECK_INVALID(conv(dt::u8, dt::s8, dt::u8, mixed), "cannot be mixed");
    primitive_attr count;
    count.set_output_scales(2, {0.5f, 0.25f});
    CHECK_INVALID(conv(dt::u8, dt::s8, dt::u8, count), "output scales have 2 values, mask 2 needs 8");
    primitive_attr sum_zp;
    sum_zp.set_post_ops(parse_post_ops("sum:1:3"));
    CHECK_INVALID(conv(dt::u8, dt::s8, dt::f32, sum_zp), "a zero point needs an integer dst, dst is f32");
    primitive_attr sum_dt;
    sum_dt.set_post_ops(parse_post_ops("sum:1:0:s32"));
    CHECK_INVALID(conv(dt::u8, dt::s8, dt::u8, sum_dt), "data type s32 must have the size of dst's u8");
    primitive_attr bad_operand;
    bad_operand.set_post_ops(parse_post_ops("add:u8"));
    post_ops po;
    po.append_binary(algorithm::binary_add, memory::desc({1, 3, 1, 1}, dt::s8, tag::nchw));
    bad_operand.set_post_ops(po);
    CHECK_INVALID(conv(dt::u8, dt::s8, dt::u8, bad_operand), "post-op 0");
    CHECK_INVALID(a.set_scales_mask(PRIM_ARG_BIAS, 0), "not argument 41");
    CHECK_INVALID(a.set_output_scales(0, {}), "at least one value");
    CHECK_INVALID(a.set_output_scales(0, {nan_f}), "NaN");
    // Scales on a primitive that has none.
    primitive_attr on_eltwise;
    on_eltwise.set_output_scales(0, {2.f});
    const memory::desc e({2, 8}, dt::f32, tag::ab);
    CHECK_INVALID(eltwise_forward::primitive_desc(eltwise_forward::desc(prop_kind::forward_inference,
                          algorithm::eltwise_relu, e, 0.f, 0.f), on_eltwise),
                  "supported by convolution, inner product and reorder only");

    // A missing value at execute.
    primitive_attr runtime;
    runtime.set_output_scales(2, {PRIM_RUNTIME_F32_VAL});
    runtime.set_zero_points_mask(PRIM_ARG_DST, 0);
    const memory::desc src({1, 8, 4, 4}, dt::u8, tag::nchw), wei({8, 8, 1, 1}, dt::s8, tag::oihw),
            dst({1, 8, 4, 4}, dt::u8, tag::nchw);
    convolution_forward::primitive_desc pd(convolution_forward::desc(prop_kind::forward_inference,
            algorithm::convolution_direct, src, wei, dst, {1, 1}, {0, 0}, {0, 0}, {0, 0}), runtime);
    CHECK(pd.query_md(PRIM_ARG_ATTR_OUTPUT_SCALES) == memory::desc({8}, dt::f32, tag::x));
    CHECK(pd.query_md(PRIM_ARG_ATTR_ZERO_POINTS | PRIM_ARG_DST) == memory::desc({1}, dt::s32, tag::x));
    memory s(src), w(wei), d(dst), scales(memory::desc({8}, dt::f32, tag::x)),
            wrong(memory::desc({1}, dt::f32, tag::x));
    exec_args args {{PRIM_ARG_SRC, s}, {PRIM_ARG_WEIGHTS, w}, {PRIM_ARG_DST, d},
                    {PRIM_ARG_ATTR_OUTPUT_SCALES, scales}};
    CHECK_INVALID(convolution_forward(pd).execute(args), "dst zero points argument is missing");
    args[PRIM_ARG_ATTR_ZERO_POINTS | PRIM_ARG_DST] = wrong;
    CHECK_INVALID(convolution_forward(pd).execute(args), "dst zero points memory desc a:1 differs");
}

TEST_CASE("int8: doc/int8.md's worked example", "[int8][doc]") {
    // s_linear * (alpha * (s_sum * dst_old + s_tanh * tanh(s_conv * conv)) + beta), oneDNN's
    // documentation's chain, on one 1x1 output: acc = 10*3 + 20*(-1) = 10.
    const memory::desc src_md({1, 2, 1, 1}, dt::u8, tag::nchw), wei_md({1, 2, 1, 1}, dt::s8, tag::oihw),
            dst_md({1, 1, 1, 1}, dt::u8, tag::nchw);
    primitive_attr attr;
    attr.set_output_scales(0, {0.05f});                               // s_conv
    attr.set_post_ops(parse_post_ops("tanh:0:0:2+sum:0.01+linear:10:-3:4")); // s_tanh, s_sum, alpha, beta, s_linear
    convolution_forward::primitive_desc pd(convolution_forward::desc(prop_kind::forward_inference,
            algorithm::convolution_direct, src_md, wei_md, dst_md, {1, 1}, {0, 0}, {0, 0}, {0, 0}), attr);
    memory src(src_md), wei(wei_md), dst(dst_md);
    static_cast<uint8_t *>(src.get_data_handle())[0] = 10;
    static_cast<uint8_t *>(src.get_data_handle())[1] = 20;
    static_cast<int8_t *>(wei.get_data_handle())[0] = 3;
    static_cast<int8_t *>(wei.get_data_handle())[1] = -1;
    static_cast<uint8_t *>(dst.get_data_handle())[0] = 40; // dst_old
    convolution_forward(pd).execute({{PRIM_ARG_SRC, src}, {PRIM_ARG_WEIGHTS, wei}, {PRIM_ARG_DST, dst}});
    // 4 * (10 * (0.01 * 40 + 2 * tanh(0.05 * 10)) - 3) = 40.969..., rounded: 41.
    CHECK(static_cast<uint8_t *>(dst.get_data_handle())[0] == 41);
}
