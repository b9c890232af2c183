// The JIT int8 convolution (src/jit/int8/jit_conv_int8.cpp: per group, the int8 GEMM on im2col rows,
// src/jit/int8/int8_gemm.cpp) against the reference (ISA cap none), on one instruction set per run:
// PRIM_TEST_ISA=avx2|avx512|avx512_vnni (one ctest entry each; a run for an ISA this machine
// lacks exits with 77, which ctest reports as skipped). Shapes are benchdnn's problem strings:
// 1D/2D/3D, kernels 1 to 7 (asymmetric ones too), strides, dilation, start and end padding
// (beyond the kernel's reach: output pixels of padding only; negative end padding), groups,
// depthwise with and without a channel multiplier, ic and oc tails, mb 1 and more rows than a
// thread's chunk. Also every data type combination, 2.x output scales and v3 scales, src and dst
// zero points (padding must read the src zero point: the real 0), sums, eltwise and typed
// binary operands, weights 'any' or given, src given in other layouts, saturation at both ends,
// the s32 accumulator's bound, and src zero points the kernel's padding value cannot hold.
// Every case asserts the chosen implementation's name. An s32 dst with no scales and no chain
// must equal the reference bit for bit; another integer dst within +-1; f32 within
// 1e-6·max(1, |largest|).
#include "int8_test_util.hpp"

#include "problem_parse.hpp"

namespace {

using prim::impl::conv_problem;

struct conv_case {
    std::string shape = "mb2ic5oc17ih6iw5kh3kw3ph1pw1"; // benchdnn's problem string
    dt src = dt::u8, dst = dt::u8, bias = dt::f32;       // bias undef: none
    quant_masks q;   // per channel: oscale 2, zero points 2; wei_scale > 0: per oc (1, or 3 grouped)
    std::string chain;
    std::string wei_tag;           // "": 'any' (the packed layout); else given: "+repack"
    bool grouped_weights = false;  // weights (g, oc/g, ic/g, ...) when g is 1 too
    std::string src_tag, dst_tag;  // "": 'any' (channels-last)
    bool saturating_fill = false;
    int zp_lo = 0, zp_hi = 0;      // src zero points' range; both 0: within the src type's range
    uint32_t seed = 1;
    std::string expected_impl;     // "": the JIT on the tested ISA
    bool dst_repacked = false;     // a dst not channels-last: "+repack" too
    int32_t sums_delta = 0;        // added to the weight sums of 'any' weights (the test of their use)

    std::string str() const {
        return shape + " " + data_type_name(src) + ":s8:" + data_type_name(dst) + " bias "
               + data_type_name(bias) + " wei '" + wei_tag + "' src '" + src_tag + "' dst '"
               + dst_tag + "'" + q.str() + " chain '" + chain + "'";
    }
};

// The descriptor's dims and vectors of a problem.
struct conv_dims {
    conv_problem p;
    dims src, wei, dst, strides, dilates, pad_l, pad_r;
    int64_t pixels = 1; // output pixels per image
};

conv_dims dims_of(const conv_case &c) {
    conv_dims d;
    d.p = bdl::parse_conv_problem(c.shape);
    const conv_problem &p = d.p;
    d.src = {p.mb, p.ic};
    d.dst = {p.mb, p.oc};
    d.wei = p.g > 1 || c.grouped_weights ? dims {p.g, p.ocg(), p.icg()} : dims {p.oc, p.ic};
    for (int sp = 3 - p.nsp; sp < 3; ++sp) {
        d.src.push_back(p.i[sp]);
        d.dst.push_back(p.o[sp]);
        d.wei.push_back(p.k[sp]);
        d.strides.push_back(p.s[sp]);
        d.dilates.push_back(p.d[sp]);
        d.pad_l.push_back(p.p[sp]);
        d.pad_r.push_back(p.p_end[sp]);
        d.pixels *= p.o[sp];
    }
    return d;
}

bool grouped(const conv_dims &d) { return d.wei.size() == d.src.size() + 1; }

outcome_of_run run(const conv_case &c, const conv_dims &d, const int8_inputs &in, cpu_isa cap) {
    const auto desc_of = [](const dims &x, dt t, const std::string &pattern) {
        return pattern.empty() ? memory::desc(x, t, tag::any) : memory::desc(x, t, pattern);
    };
    const memory::desc bias_md = c.bias == dt::undef ? memory::desc() : memory::desc({d.p.oc}, c.bias, tag::x);
    primitive_attr attr;
    attr.set_max_cpu_isa(cap);
    attr.set_post_ops(parse_post_ops(c.chain));
    quant_masks q = c.q;
    if (q.wei_scale > 0) q.wei_scale = grouped(d) ? 3 : 1;
    exec_args args;
    set_quantization(q, in.quant, d.p.oc, d.p.ic, attr, args);
    const convolution_forward::primitive_desc pd(
            convolution_forward::desc(prop_kind::forward_inference, algorithm::convolution_direct,
                                      desc_of(d.src, c.src, c.src_tag), desc_of(d.wei, dt::s8, c.wei_tag),
                                      bias_md, desc_of(d.dst, c.dst, c.dst_tag), d.strides, d.dilates,
                                      d.pad_l, d.pad_r),
            attr);
    args[PRIM_ARG_SRC] = in_layout(in.src, pd.src_desc());
    args[PRIM_ARG_WEIGHTS] = in_layout(in.wei, pd.weights_desc());
    const memory::desc &wmd = pd.weights_desc();
    if (c.sums_delta != 0 && wmd.weight_sums_dims() > 0) {
        auto *sums = reinterpret_cast<int32_t *>(static_cast<char *>(args[PRIM_ARG_WEIGHTS].get_data_handle())
                                                 + wmd.nelems_padded());
        for (size_t i = 0; i < (wmd.get_size() - static_cast<size_t>(wmd.nelems_padded())) / 4; ++i)
            sums[i] += c.sums_delta;
    }
    if (c.bias != dt::undef) args[PRIM_ARG_BIAS] = in.bias;
    const memory dst = copy_in_layout(in.dst_old, pd.dst_desc());
    args[PRIM_ARG_DST] = dst;
    add_operands(pd, in.operands, args);
    convolution_forward(pd).execute(args);
    return {pd.impl_name(), values_of(dst)};
}

int8_inputs inputs_of(const conv_case &c, const conv_dims &d) {
    int8_input_spec spec;
    spec.src = d.src;
    spec.wei = d.wei;
    spec.dst = d.dst;
    spec.src_dt = c.src;
    spec.dst_dt = c.dst;
    spec.bias_dt = c.bias;
    spec.chain = c.chain;
    spec.saturating = c.saturating_fill;
    // Zero points the src type holds: the padding's value (int8_src_rows.hpp).
    const bool given = c.zp_lo != 0 || c.zp_hi != 0;
    spec.zp_lo = given ? c.zp_lo : c.src == dt::u8 ? 0 : -64;
    spec.zp_hi = given ? c.zp_hi : c.src == dt::u8 ? 140 : 70;
    spec.seed = c.seed;
    return make_inputs(spec);
}

// Runs the case on the tested ISA and on the reference and compares.
void check(const conv_case &c) {
    const cpu_isa isa = tested_isa();
    INFO(c.str() << " isa " << cpu_isa_name(isa));
    const conv_dims d = dims_of(c);
    const int8_inputs in = inputs_of(c, d);
    const outcome_of_run jit = run(c, d, in, isa);
    const outcome_of_run ref = run(c, d, in, cpu_isa::none);
    CHECK(ref.impl == "ref");
    CHECK(jit.impl == (c.expected_impl.empty() ? jit_name(isa, !c.wei_tag.empty() || c.dst_repacked)
                                               : c.expected_impl));
    const bool exact = c.dst == dt::s32 && !c.q.transforms_acc() && c.chain.empty();
    compare_with_reference(jit.dst, ref.dst, c.dst, exact, d.p.oc, d.pixels);
}

// The case bit-exact (s32 dst, no bias, no scales, no chain), then with a bias, an output scale,
// `chain` and dst `chained_dst`; each run with the next seed.
void check_exact_and_chained(conv_case c, dt chained_dst, const std::string &chain, uint32_t &seed) {
    c.dst = dt::s32;
    c.bias = dt::undef;
    c.seed = ++seed;
    check(c);
    c.dst = chained_dst;
    c.bias = dt::f32;
    c.q.oscale = 2;
    c.chain = chain;
    c.seed = ++seed;
    check(c);
}

// Shapes over every feature of the im2col rows: ranks, kernels, strides, dilation, padding,
// groups and tails.
const char *const shapes[] = {
        // 1D: kernels 3, 5, 7, 2; strides 1 to 3; dilation; padding beyond the kernel's reach
        // (ow 0, 1, 8, 9 read padding only); negative end padding (-2: the last 2 unused).
        "mb2ic3oc7iw9kw3pw1", "mb1ic5oc17iw11kw5sw2pw2", "mb2ic1oc33iw16kw7sw3pw3",
        "mb1ic16oc16iw10kw2sw2", "mb2ic3oc1iw9kw3dw2pw2", "mb2ic3oc7iw4ow10kw3pw4",
        "mb1ic5oc7iw8ow2kw3sw3pw0",
        // 2D: kh3kw1, 3x3, 2x3 with strides 2x3, 5x5, 7x7 stride 2 (a first layer), dilation,
        // padding beyond the reach, negative end padding in both dims.
        "mb2ic3oc7ih5iw6kh3kw1ph1pw0", "mb1ic16oc33ih7kh3ph1", "mb2ic5oc17ih8iw9kh2kw3sh2sw3ph0pw1",
        "mb1ic7oc49ih9kh5sh2ph2", "mb1ic3oc16ih12kh7sh2ph3", "mb2ic8oc8ih7kh3dh1ph2",
        "mb1ic4oc5ih3oh7kh3ph4", "mb2ic6oc10ih10iw9oh3ow3kh3kw2sh3sw3ph0pw0",
        // groups: icg 3 ocg 5, icg 5 ocg 7, icg 16 ocg 48, 1x1 grouped (icg 16, icg 4)
        "mb2g2ic6oc10ih6kh3ph1", "mb1g3ic15oc21ih5kh3sh2ph1", "mb2g2ic32oc96ih5kh3ph1",
        "mb1g4ic64oc68ih4kh1", "mb1g3ic12oc27ih5kh1",
        // depthwise (g = ic = oc), with a channel multiplier 2 (oc = 2 ic)
        "mb2g16ic16oc16ih7kh3ph1", "mb1g13ic13oc13ih6kh3sh2ph1", "mb2g8ic8oc16ih5kh3ph1",
        "mb1g5ic5oc10ih9kh5sh2ph2",
        // depthwise 1x1, channels whole vectors (the user's src in place, lines of pixels), strided
        "mb2g32ic32oc32ih5kh1", "mb1g64ic64oc64ih4iw6kh1kw1", "mb2g32ic32oc32ih6kh1sh2",
        // depthwise over several panels of channels (each panel reads its own), with tails
        "mb2g128ic128oc128iw16kw3pw1", "mb1g200ic200oc200ih9kh3ph1", "mb1g72ic72oc72ih6kh3sh2ph1",
        // 3D: 3x3x3 padded, 2x2x2 stride 2, grouped 3x1x3 with strides, 1x1x1
        "mb1ic3oc9id4ih5iw4kd3kh3kw3pd1ph1pw1", "mb1ic5oc17id5kd2sd2",
        "mb1g2ic6oc6id4ih4iw4kd3kh1kw3sh2pd1pw1", "mb2ic8oc12id3ih4iw5kd1kh1kw1",
        "mb2ic8oc20id5ih5iw4kd3kh3kw3sd2pd1ph1pw1", // whole K groups: each thread converts its rows
        // 1x1: stride 2, padded (the rows are not the src pixels), plain pixels
        "mb2ic16oc24ih7kh1sh2", "mb1ic8oc8ih4kh1ph1", "mb3ic21oc35ih5iw3kh1kw1"};

} // namespace

TEST_CASE("jit int8 conv: every data type combination", "[jit][int8][conv]") {
    for (dt src : {dt::u8, dt::s8})
        for (dt dst : {dt::u8, dt::s8, dt::s32, dt::f32})
            for (dt bias : {dt::f32, dt::s32, dt::undef}) {
                conv_case c;
                c.shape = "mb2ic5oc17ih7iw6kh3kw3sh2sw1ph1pw1";
                c.src = src;
                c.dst = dst;
                c.bias = bias;
                c.q.oscale = dst == dt::s32 ? -1 : 2; // s32 dst: the accumulator itself
                check(c);
            }
}

TEST_CASE("jit int8 conv: shapes, tails and ranks", "[jit][int8][conv]") {
    uint32_t seed = 0;
    for (const char *shape : shapes)
        for (bool any : {true, false}) {
            conv_case c;
            c.shape = shape;
            c.wei_tag = any ? "" : plain_pattern(dims_of(c).wei.size());
            c.dst = dt::s8;
            c.q.oscale = 2;
            c.q.src_zp = 2;
            c.chain = "sum:0.5:1+relu";
            c.seed = ++seed;
            check(c);
            c.src = dt::s8;
            c.dst = dt::f32;
            c.q.src_zp = 0;
            c.chain = "gelu_erf";
            c.seed = ++seed;
            check(c);
        }
}

TEST_CASE("jit int8 conv: s32 dst without scales is bit-exact", "[jit][int8][conv]") {
    for (const char *shape : {"mb2ic3oc7ih5iw6kh3kw1ph1pw0", "mb1g3ic15oc21ih5kh3sh2ph1",
                              "mb2g16ic16oc16ih7kh3ph1", "mb3ic21oc35ih5iw3kh1kw1", "mb2ic3oc7iw4ow10kw3pw4"})
        for (dt src : {dt::u8, dt::s8})
            for (int zp : {-1, 0, 2}) {
                conv_case c;
                c.shape = shape;
                c.src = src;
                c.dst = dt::s32;
                c.bias = dt::undef;
                c.q.src_zp = zp;
                check(c);
            }
}

// Without a src zero point (and, with VNNI, a u8 src) the kernel skips the taps in the padding:
// a line's (kd, kh) outside the input, and per tile of a row the rows whose kw tap is outside
// (int8_gemm.cpp, skips_padding); VNNI then reads the user's src itself. The shapes put those
// edges everywhere: rows of several tiles (the first and the last tile's edges), rows of one
// tile with both edges, strides and dilation at the edges, tiles whose rows read a tap in the
// padding from both sides, whole lines and tiles of padding only, 3D, kw 8 (the widest row the
// code unrolls) and 9 (not skipped), asymmetric and negative padding, groups.
TEST_CASE("jit int8 conv: the taps in the padding skipped", "[jit][int8][conv]") {
    const char *const edge_shapes[] = {
            "mb2ic64oc40ih30kh3ph1", "mb1ic32oc16ih7kh3ph1", "mb1ic16oc17ih14kh3ph1",
            "mb1ic8oc24ih9iw33kh3kw5sh1sw2ph2pw2", "mb1ic12oc20ih11kh3dh2ph2",
            "mb1ic4oc16iw3ow9kw3pw3", "mb1ic8oc16ih2oh6iw4ow6kh3kw3ph2pw2",
            "mb1ic4oc8id3ih4iw5kd3kh3kw3pd1ph1pw1", "mb2ic8oc16ih6iw12kh2kw8ph1pw4",
            "mb1ic8oc16ih5iw12kh3kw9ph1pw4", "mb2ic8oc9ih6iw7kh3kw3ph2pw0", "mb1ic12oc16ih8iw10oh7ow9kh3kw3ph1pw1",
            "mb1g2ic16oc32ih9kh3ph1", "mb1ic3oc16ih20kh7sh2ph3"};
    uint32_t seed = 100;
    for (const char *shape : edge_shapes)
        for (dt src : {dt::u8, dt::s8}) {
            conv_case c;
            c.shape = shape;
            c.src = src;
            check_exact_and_chained(c, dt::u8, "sum:0.5+relu", seed); // the edge tiles' stores too
        }
}

// A strided 1x1 convolution's src form keeps the pixels it reads alone, and its GEMM's tiles run
// across output rows (int8_src_form.hpp); read in place (VNNI, u8, no zero point), its tiles on
// output rows of 7 to 15 pixels cross into the next row, and the next image, from a second base
// (int8_gemm.cpp, tiles_span_rows). Strides in every dimension, padding (its pixels the zero
// point), output rows shorter than a tile, channels whole (one copy a pixel), 3 (4-byte words)
// and 12 (value by value), groups, 3D, and more rows than a thread's chunk.
TEST_CASE("jit int8 conv: strided 1x1 on the pixels it reads", "[jit][int8][conv]") {
    const char *const strided_shapes[] = {
            "mb2ic64oc40ih14kh1sh2", "mb1ic32oc48ih7kh1sh2", "mb2ic16oc17ih9iw13kh1kw1sh3sw2",
            "mb1ic8oc16ih8kh1sh2ph1", "mb1ic3oc16ih11kh1sh2", "mb2ic12oc20ih10iw7kh1kw1sh2sw3ph1pw0",
            "mb1g2ic16oc32ih9kh1sh2", "mb1ic8oc12id5ih6iw7kd1kh1kw1sd2sh2sw2",
            "mb4ic256oc64ih56kh1sh2", "mb3ic64oc48ih28kh1sh2", "mb2ic32oc20ih30iw29kh1kw1sh2sw2"};
    uint32_t seed = 200;
    for (const char *shape : strided_shapes)
        for (dt src : {dt::u8, dt::s8})
            for (int zp : {-1, 2}) {
                conv_case c;
                c.shape = shape;
                c.src = src;
                c.q.src_zp = zp;
                check_exact_and_chained(c, dt::s8, "sum:0.25+add:f32:per_mb_spatial", seed);
            }
}

TEST_CASE("jit int8 conv: v3 scales, 2.x output scales and zero points", "[jit][int8][conv]") {
    for (const char *shape : {"mb2g3ic9oc15ih6kh3ph1", "mb1g8ic8oc16ih5kh3sh2ph1"})
        for (const quant_combination &qc : quant_combinations()) {
            conv_case c;
            c.shape = shape;
            c.src = qc.src;
            c.dst = qc.dst;
            c.q = qc.q;
            check(c);
        }
}

TEST_CASE("jit int8 conv: chains, sums with zero points and types", "[jit][int8][conv]") {
    for (const auto &[chain, dst] : chain_combinations()) {
        conv_case c;
        c.shape = "mb2g2ic6oc34ih5iw4kh3kw2sh1sw2ph1pw1";
        c.dst = dst;
        c.chain = chain;
        c.q.oscale = 2;
        c.q.src_zp = 0;
        c.q.dst_zp = dst == dt::u8 || dst == dt::s8 ? 2 : -1;
        check(c);
    }
}

TEST_CASE("jit int8 conv: typed binary operands on every oc tail", "[jit][int8][conv]") {
    for (int64_t oc : {1, 7, 17, 33, 49})
        for (const char *chain : {"add:s8:per_oc", "mul:u8:per_tensor", "add:s32:per_tensor",
                                  "add:u8:per_mb_spatial", "mul:s8:common", "add:f32:per_mb_spatial+sub:f32:per_oc"}) {
            conv_case c;
            c.shape = "mb3ic5oc" + std::to_string(oc) + "ih4iw5kh3kw3ph1pw2";
            c.q.oscale = 0;
            c.dst = dt::s8;
            c.chain = chain;
            c.seed = static_cast<uint32_t>(oc);
            check(c);
        }
}

TEST_CASE("jit int8 conv: src and dst layouts", "[jit][int8][conv]") {
    // The JIT reads any src (copied channels-last first) and writes a channels-last dst; a
    // given planar or blocked dst is a channels-last copy moved into it ("+repack"), filled from
    // it first for the sum.
    struct layout_case {
        const char *shape, *src_tag, *dst_tag, *wei_tag;
        bool channels_last_dst;
    };
    const layout_case cases[] = {
            {"mb2ic5oc17ih6iw5kh3kw3ph1pw1", "abcd", "", "", true},
            {"mb2ic5oc17ih6iw5kh3kw3ph1pw1", "aBcd8b", "", "", true},
            {"mb2ic19oc17ih6iw5kh3kw3ph1pw1", "aBcd16b", "", "", true},
            {"mb2ic5oc17ih6iw5kh3kw3ph1pw1", "acdb", "acdb", "", true},
            {"mb2ic5oc17ih6iw5kh3kw3ph1pw1", "acdb", "acdb", "acdb", true}, // weights ohwi: repacked
            {"mb1ic3oc7iw9kw3pw1", "abc", "acb", "", true},
            {"mb1ic3oc9id4ih5iw4kd3kh3kw3pd1ph1pw1", "abcde", "", "", true},
            {"mb1ic3oc9id4ih5iw4kd3kh3kw3pd1ph1pw1", "aBcde8b", "acdeb", "", true},
            {"mb2g2ic6oc10ih6kh3ph1", "abcd", "", "", true},
            {"mb3ic21oc35ih5iw3kh1kw1", "abcd", "", "", true}, // 1x1: rows are the copied pixels
            {"mb2ic5oc17ih6iw5kh3kw3ph1pw1", "acdb", "abcd", "", false},
            {"mb2ic5oc17ih6iw5kh3kw3ph1pw1", "", "aBcd8b", "", false},
    };
    for (const layout_case &l : cases)
        for (dt src : {dt::u8, dt::s8}) {
            conv_case c;
            c.shape = l.shape;
            c.src = src;
            c.src_tag = l.src_tag;
            c.dst_tag = l.dst_tag;
            c.wei_tag = l.wei_tag;
            c.q.oscale = 2;
            c.q.src_zp = 2;
            c.chain = "sum:0.5+relu";
            c.dst_repacked = !l.channels_last_dst;
            check(c);
        }
    // An operand that follows dst's layout would be read in the copy's: the reference runs those;
    // per-channel operands are the copy's too.
    for (const char *chain : {"add:u8:per_tensor", "mul:s8:per_mb_spatial+relu", "add:f32:per_oc+relu"}) {
        conv_case c;
        c.shape = "mb2ic5oc17ih6iw5kh3kw3ph1pw1";
        c.dst_tag = "abcd";
        c.chain = chain;
        c.dst_repacked = true;
        if (std::string(chain).find("per_oc") == std::string::npos) c.expected_impl = "ref";
        check(c);
    }
    // Weights given with a group dim of 1, 'any' and plain.
    for (bool any : {true, false}) {
        conv_case c;
        c.shape = "mb2ic5oc17ih6iw5kh3kw3ph1pw1";
        c.grouped_weights = true;
        c.wei_tag = any ? "" : "abcde";
        c.q.oscale = 2;
        c.q.wei_scale = -1;
        check(c);
    }
}

TEST_CASE("jit int8 conv: saturation and the accumulator's bound", "[jit][int8][conv]") {
    // src 255 (or -128) times +-127: sums at both ends, clamped at both ends of u8 and s8
    // through an output scale; padded taps read the zero point 0.
    for (dt src : {dt::u8, dt::s8})
        for (const char *shape : {"mb1ic64oc4ih5kh3ph1", "mb1g2ic80oc6ih4kh3ph1", "mb2ic1000oc3iw3kw1"}) {
            conv_case c;
            c.shape = shape;
            c.src = src;
            c.dst = dt::s32;
            c.bias = dt::undef;
            c.saturating_fill = true;
            check(c);
            c.q.oscale = 0;
            for (dt dst : {dt::u8, dt::s8}) {
                c.dst = dst;
                check(c);
            }
        }
    // ic·taps = 65772: the largest K whose s32 sums of 255·128 cannot wrap (65793), taken by
    // the JIT exactly; 66600 goes to the reference.
    for (dt src : {dt::u8, dt::s8}) {
        conv_case c;
        c.shape = "mb1ic7308oc3ih3kh3";
        c.src = src;
        c.dst = dt::s32;
        c.bias = dt::undef;
        c.saturating_fill = true;
        check(c);
        c.saturating_fill = false;
        check(c);
        c.shape = "mb1ic7400oc3ih3kh3";
        c.expected_impl = "ref";
        check(c);
    }
}

TEST_CASE("jit int8 conv: more rows than a thread's chunk", "[jit][int8][conv]") {
    // K = 2304 (ic 256, 3x3): a chunk holds about 100 rows, 512 rows make 5 chunks over the
    // threads, oc 49 two panels on AVX-512; per_mb_spatial operands read per row.
    for (dt src : {dt::u8, dt::s8}) {
        conv_case c;
        c.shape = "mb8ic256oc49ih8kh3ph1";
        c.src = src;
        c.dst = dt::s8;
        c.q.oscale = 2;
        c.q.src_zp = 2;
        c.chain = "add:u8:per_mb_spatial+relu";
        check(c);
    }
    conv_case dw; // a channel multiplier over many rows
    dw.shape = "mb4g32ic32oc64ih20kh3sh1ph1";
    dw.dst = dt::f32;
    dw.q.src_zp = 2;
    check(dw);
    dw.shape = "mb2g160ic160oc160ih20kh3ph1"; // depthwise: many rows and panels
    check(dw);
}

namespace {

// A 1D s32 convolution computed here, from its definition: taps in the padding contribute 0
// (padding_reads_zp) or, as if the padding held the integer 0, -zp·w. zp_mask: the src zero
// points' (0: one value).
std::vector<float> direct_1d(const conv_dims &d, const int8_inputs &in, int zp_mask,
                             bool padding_reads_zp) {
    const conv_problem &p = d.p;
    const std::vector<float> src = values_of(in.src), wei = values_of(in.wei);
    const int64_t iw = p.i[2], ow = p.o[2], kw = p.k[2], icg = p.icg(), ocg = p.ocg();
    std::vector<float> out;
    for (int64_t n = 0; n < p.mb; ++n)
        for (int64_t oc = 0; oc < p.oc; ++oc)
            for (int64_t x = 0; x < ow; ++x) {
                const int64_t g = oc / ocg;
                int64_t acc = 0;
                for (int64_t c = 0; c < icg; ++c) {
                    const int64_t ic = g * icg + c;
                    const int64_t zp = in.quant.src_zp[static_cast<size_t>(zp_mask ? ic : 0)];
                    for (int64_t k = 0; k < kw; ++k) {
                        const int64_t w = static_cast<int64_t>(wei[static_cast<size_t>((oc * icg + c) * kw + k)]);
                        const int64_t at = x * p.s[2] - p.p[2] + k * (p.d[2] + 1);
                        const bool inside = at >= 0 && at < iw;
                        const int64_t s = inside ? static_cast<int64_t>(src[static_cast<size_t>((n * p.ic + ic) * iw + at)])
                                                 : padding_reads_zp ? zp : 0;
                        acc += (s - zp) * w;
                    }
                }
                out.push_back(static_cast<float>(acc));
            }
    return out;
}

} // namespace

TEST_CASE("jit int8 conv: padding reads the src zero point", "[jit][int8][conv]") {
    // ow 0, 1, 6, 7, 8 read padding only: their sums are 0; reading the padding as the integer 0
    // would give -zp·Σw there instead (checked to differ, so the case can fail).
    for (const char *shape : {"mb2ic5oc7iw3ow9kw2pw3", "mb1g2ic6oc4iw3ow9kw2pw3", "mb1g6ic6oc6iw3ow9kw2pw3"})
        for (dt src : {dt::u8, dt::s8})
            for (int zp_mask : {0, 2}) {
                conv_case c;
                c.shape = shape;
                c.src = src;
                c.dst = dt::s32;
                c.bias = dt::undef;
                c.q.src_zp = zp_mask;
                c.zp_lo = src == dt::u8 ? 1 : -128;
                c.zp_hi = src == dt::u8 ? 255 : 127;
                INFO(c.str());
                const conv_dims d = dims_of(c);
                const int8_inputs in = inputs_of(c, d);
                const std::vector<float> want = direct_1d(d, in, zp_mask, true);
                CHECK(want != direct_1d(d, in, zp_mask, false));
                for (int64_t n = 0; n < d.p.mb; ++n)
                    for (int64_t oc = 0; oc < d.p.oc; ++oc)
                        for (int64_t x : {0, 1, 6, 7, 8})
                            CHECK(want[static_cast<size_t>((n * d.p.oc + oc) * d.pixels + x)] == 0.f);
                const outcome_of_run jit = run(c, d, in, tested_isa());
                const outcome_of_run ref = run(c, d, in, cpu_isa::none);
                CHECK(jit.impl == jit_name(tested_isa(), false));
                compare_with_reference(ref.dst, want, dt::s32, true, d.p.oc, d.pixels);
                compare_with_reference(jit.dst, want, dt::s32, true, d.p.oc, d.pixels);
            }
}

TEST_CASE("jit int8 conv: a src zero point the padding value cannot hold", "[jit][int8][conv]") {
    // The padding's value is the zero point in the src form's type (+128 for s8 on VNNI): u8
    // -2 (oneDNN's harness_conv_zero_points), u8 300, s8 200, one channel's -300, 70000 (beyond
    // 16 bits) cannot be it. The call runs another implementation on the primitive's own
    // layouts (under VNNI the AVX-512 kernel's 16-bit form, else the reference) and gives exactly
    // the reference's result, on every ISA.
    struct zp_case {
        dt src;
        int mask;
        int32_t zp;
    };
    for (const zp_case &z : {zp_case {dt::u8, 0, -2}, zp_case {dt::u8, 0, 300}, zp_case {dt::s8, 0, 200},
                             zp_case {dt::s8, 2, -300}, zp_case {dt::u8, 2, 70000}}) {
        conv_case c;
        c.shape = "mb1ic4oc5ih4kh3ph1";
        c.src = z.src;
        c.dst = dt::s32;
        c.bias = dt::undef;
        c.q.src_zp = z.mask;
        INFO(c.str() << " zp " << z.zp);
        const conv_dims d = dims_of(c);
        int8_inputs in = inputs_of(c, d);
        in.quant.src_zp[z.mask ? 2 : 0] = z.zp;
        const outcome_of_run ref = run(c, d, in, cpu_isa::none);
        outcome_of_run jit;
        const outcome o = run([&] { jit = run(c, d, in, tested_isa()); });
        REQUIRE(o.message == "no exception");
        CHECK(jit.impl == jit_name(tested_isa(), false));
        compare_with_reference(jit.dst, ref.dst, dt::s32, true, d.p.oc, d.pixels);
    }
}

TEST_CASE("jit int8 conv: any src zero point without padding", "[jit][int8][conv]") {
    // No tap reads padding (3x3 unpadded, 1x1 stride 2, dilated stride 2): the zero point only
    // shifts the sums, whatever its value, as in the reference.
    for (const char *shape : {"mb1ic4oc5ih6kh3", "mb2ic8oc5ih7kh1sh2", "mb1g2ic8oc6iw9kw3sw2dw1"})
        for (dt src : {dt::u8, dt::s8})
            for (int32_t zp : {-1, 300, -300}) {
                conv_case c;
                c.shape = shape;
                c.src = src;
                c.dst = dt::s32;
                c.bias = dt::undef;
                c.q.src_zp = 0;
                c.zp_lo = c.zp_hi = zp;
                INFO(c.str() << " zp " << zp);
                const conv_dims d = dims_of(c);
                const int8_inputs in = inputs_of(c, d);
                const outcome_of_run ref = run(c, d, in, cpu_isa::none);
                outcome_of_run jit;
                const outcome o = run([&] { jit = run(c, d, in, tested_isa()); });
                CHECK(o.message == "no exception");
                if (!o.threw_prim) {
                    CHECK(jit.impl == jit_name(tested_isa(), false));
                    compare_with_reference(jit.dst, ref.dst, dt::s32, true, d.p.oc, d.pixels);
                }
            }
}

TEST_CASE("jit int8 conv: 'any' weights carry their sums, which give the compensation", "[jit][int8][conv]") {
    // The packed weights desc has weight sums (memory::desc::weight_sums_dims), written by the
    // reorder into it: the kernel's compensation for a src zero point (and, on VNNI, for s8
    // src's shift by 128) comes from them at execute, not from a pass over the weights. Sums
    // off by one change the result exactly where they are used: a common zero point, depthwise
    // per-channel ones; not a per-channel zero point of a dense convolution, which does not
    // factor out of them.
    const cpu_isa isa = tested_isa();
    struct sums_case {
        const char *shape;
        dt src;
        int zp_mask;
        bool used;
    };
    const bool s8_shift = isa == cpu_isa::avx512_vnni;
    const sums_case cases[] = {
        {"mb2ic19oc37ih6kh3ph1", dt::u8, 0, true},  {"mb1ic70oc20ih5kh1", dt::u8, 0, true},
        {"mb2g3ic15oc21ih5kh3ph1", dt::u8, 0, true}, {"mb2g24ic24oc24ih7kh3ph1", dt::u8, 2, true},
        {"mb1ic19oc37ih6kh3ph1", dt::u8, 2, false}, {"mb1ic19oc37ih6kh1", dt::s8, -1, s8_shift},
    };
    for (const sums_case &k : cases)
        for (int32_t delta : {0, 1}) {
            conv_case c;
            c.shape = k.shape;
            c.src = k.src;
            c.dst = dt::s32;
            c.bias = dt::undef;
            c.q.src_zp = k.zp_mask;
            c.zp_lo = 1; // no zero point of 0: every used sum moves the result
            c.zp_hi = k.src == dt::u8 ? 200 : 100;
            c.sums_delta = delta;
            INFO(c.str() << " delta " << delta << " isa " << cpu_isa_name(isa));
            const conv_dims d = dims_of(c);
            const int8_inputs in = inputs_of(c, d);
            const outcome_of_run jit = run(c, d, in, isa);
            const outcome_of_run ref = run(c, d, in, cpu_isa::none);
            CHECK(jit.impl == jit_name(isa, false));
            if (delta == 0 || !k.used) compare_with_reference(jit.dst, ref.dst, dt::s32, true, d.p.oc, d.pixels);
            else CHECK(jit.dst != ref.dst);
        }
}
