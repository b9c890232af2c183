// Robustness of the public API: every kind of bad input gives a prim::error with the right status
// and a message naming the problem, never a crash, a hang or a wrong result. Only the public
// header is used, as a user would.
#include "api_test_util.hpp"

namespace {

// A valid 2D convolution, mb2 ic4 ih5 oc6 oh3 kh3, with bias; tests break one piece at a time.
struct conv_case {
    dims src {2, 4, 5, 5}, wei {6, 4, 3, 3}, bias {6}, dst {2, 6, 3, 3};
    dims strides {1, 1}, dilates {0, 0}, pad_l {0, 0}, pad_r {0, 0};
    algorithm alg = algorithm::convolution_direct;
    bool with_bias = true;

    convolution_forward::desc desc() const {
        if (!with_bias)
            return {prop_kind::forward_inference, alg, plain(src), plain(wei), plain(dst),
                    strides, dilates, pad_l, pad_r};
        return {prop_kind::forward_inference, alg, plain(src), plain(wei), plain(bias),
                plain(dst), strides, dilates, pad_l, pad_r};
    }
    void create() const { convolution_forward::primitive_desc pd(desc()); }
};

// A valid inner product, mb3 ic5 oc7, with bias.
struct ip_case {
    dims src {3, 5}, wei {7, 5}, bias {7}, dst {3, 7};
    inner_product_forward::desc desc() const {
        return {prop_kind::forward_inference, plain(src), plain(wei), plain(bias), plain(dst)};
    }
    void create() const { inner_product_forward::primitive_desc pd(desc()); }
};

// Memories for a created primitive, in the layouts its primitive_desc reports.
struct bound_args {
    memory src, wei, bias, dst;
    explicit bound_args(const primitive_desc_base &pd)
        : src(pd.src_desc()), dst(pd.dst_desc()) {
        if (!pd.weights_desc().is_zero()) wei = memory(pd.weights_desc());
        if (!pd.bias_desc().is_zero()) bias = memory(pd.bias_desc());
    }
    exec_args all() const {
        exec_args a {{PRIM_ARG_SRC, src}, {PRIM_ARG_DST, dst}};
        if (!wei.is_empty()) a[PRIM_ARG_WEIGHTS] = wei;
        if (!bias.is_empty()) a[PRIM_ARG_BIAS] = bias;
        return a;
    }
};

} // namespace

// ---- memory descriptors and memory objects --------------------------------------------------

TEST_CASE("memory descs refuse bad ranks, tags, types and dims", "[bad_input][memory]") {
    CHECK_INVALID(memory::desc({}, dt::f32, std::string("")), "rank must be 1 to 6");
    CHECK_INVALID(memory::desc({1, 1, 1, 1, 1, 1, 1}, dt::f32, std::string("abcdefg")),
                  "rank must be 1 to 6");
    CHECK_INVALID(memory::desc({2, 3}, dt::f32, tag::nchw), "4 letters for rank 2");
    CHECK_INVALID(memory::desc({2, 3}, dt::f32, tag::undef), "undefined format tag");
    CHECK_INVALID(memory::desc({2, 3}, dt::f32, static_cast<tag>(999)), "undefined format tag");
    CHECK_INVALID(memory::desc({2, 3}, dt::undef, tag::ab), "data type 0 is not one of f32, s32, s8, u8");
    CHECK_INVALID(memory::desc({2, 3}, static_cast<dt>(77), tag::ab), "data type 77 is not one of f32, s32, s8, u8");
    CHECK_INVALID(memory::desc({2, -3}, dt::f32, tag::ab), "negative dimension");
    CHECK_INVALID(memory::desc({-1}, dt::f32, tag::any), "negative dimension");
    CHECK_INVALID(memory::desc({2, 3}, dt::f32, std::string("aa")), "exactly once");
    CHECK_INVALID(memory::desc({2, 3}, dt::f32, std::string("a")), "1 letters for rank 2");
    CHECK_INVALID(memory::desc({2, 3}, dt::f32, std::string("a\xff")), "exactly once");
    CHECK_INVALID(memory::desc({2, 3}, dt::f32, std::string("aB")), "without an inner block");
    CHECK_INVALID(memory::desc({2, 3}, dt::f32, std::string("aB16")), "bad inner block");
    CHECK_INVALID(memory::desc({2, 3}, dt::f32, std::string("aB0b")), "bad inner block");
    CHECK_INVALID(memory::desc({2, 3}, dt::f32, std::string("aB8a")), "bad inner block");
    CHECK_INVALID(memory::desc({2, 3}, dt::f32, std::string("aB8b8c")), "bad inner block");
    // A dim blocked at two levels is a layout (oneDNN's VNNI weights), not an error.
    CHECK(memory::desc({2, 3}, dt::f32, std::string("aB8b2b")).padded_dims() == dims {2, 16});
}

TEST_CASE("memory descs whose size overflows 64 bits are refused", "[bad_input][memory][huge]") {
    // 2^40 * 2^40 elements: the element count, the strides and the byte size all overflow.
    CHECK_INVALID(memory::desc({huge, huge}, dt::f32, tag::ab), "too large");
    CHECK_INVALID(memory::desc({huge, huge, huge}, dt::f32, tag::abc), "too large");
    // 2^61 elements fit an int64_t but 2^63 bytes do not fit the size a buffer needs.
    CHECK_INVALID(memory::desc({memory::dim(1) << 61}, dt::f32, tag::a), "too large");
    // 2^62 elements: 2^64 bytes wrap to a size of 0, and the buffer must not be "allocated".
    CHECK_INVALID(memory m(memory::desc({memory::dim(1) << 62}, dt::f32, tag::a)), "too large");
    // An inner block so large that padding the dim to it overflows.
    CHECK_INVALID(memory::desc({2, 3}, dt::f32, std::string("aB99999999999999999999b")),
                  "inner block");
    CHECK_INVALID(memory::desc({2, 3}, dt::f32, std::string("aB4611686018427387904b")),
                  "too large");
}

TEST_CASE("descs without a layout refuse the queries that need one", "[bad_input][memory]") {
    // offset() on an 'any' desc read strides it does not have: a segfault (issue 11).
    const memory::desc any({2, 3}, dt::f32, tag::any), zero;
    const memory::dim idx[] = {1, 2};
    CHECK_INVALID(any.offset(idx), "offset() needs a layout and this desc has none ('any'");
    CHECK_INVALID(zero.offset(idx), "offset() needs a layout and this desc has none (an empty");
    CHECK_INVALID(any.strides(), "strides() needs a layout");
    CHECK_INVALID(zero.strides(), "strides() needs a layout");
    CHECK_INVALID(any.padded_dims(), "padded_dims() needs a layout");
    CHECK_INVALID(zero.padded_dims(), "padded_dims() needs a layout");
    // The sizes are defined: such a desc has no buffer, so 0 (as oneDNN's get_size()).
    CHECK(any.get_size() == 0);
    CHECK(any.nelems_padded() == 0);
    CHECK(zero.get_size() == 0);
    CHECK(zero.nelems_padded() == 0);
    CHECK(any.layout() == "any");
    CHECK(zero.layout() == "undef");
    CHECK(any.get_dims() == dims {2, 3});
    CHECK(zero.ndims() == 0);
    CHECK(any != zero);
    CHECK(any == memory::desc({2, 3}, dt::f32, tag::any));
}

TEST_CASE("an empty desc whose other dims overflow the strides is refused",
          "[bad_input][memory][huge]") {
    // 0 elements, but the stride of dim a would be 2^80: undefined behaviour before.
    CHECK_INVALID(memory::desc({0, huge, huge}, dt::f32, tag::abc), "too large");
    CHECK_INVALID(memory::desc({huge, huge, 0}, dt::f32, tag::cba), "too large");
    CHECK_INVALID(memory::desc({0, huge}, dt::f32, std::string("aB4611686018427387904b")),
                  "too large");
    CHECK(memory::desc({0, huge}, dt::f32, tag::ab).get_size() == 0);
    CHECK(memory::desc({0, huge}, dt::f32, tag::ab).strides() == dims {huge, 1});
    // Primitives on such shapes are refused at creation, with 'any' layouts too. (An inner
    // product's weights hold every dim of src but mb, so their size check covers it.)
    const memory::desc src({0, 1, huge, huge}, dt::f32, tag::any),
            wei({1, 1, 1, 1}, dt::f32, tag::any);
    CHECK_INVALID(convolution_forward::primitive_desc(convolution_forward::desc(
                          prop_kind::forward_inference, algorithm::convolution_direct, src, wei,
                          src, {1, 1}, {0, 0}, {0, 0}, {0, 0})),
                  "too large");
    CHECK_INVALID(eltwise_forward::primitive_desc({prop_kind::forward_inference,
                          algorithm::eltwise_relu, src, 0.f, 0.f}),
                  "too large");
}

TEST_CASE("memory objects refuse descs without a layout", "[bad_input][memory]") {
    CHECK_INVALID(memory(memory::desc({2, 3}, dt::f32, tag::any)), "'any'");
    CHECK_INVALID(memory(memory::desc()), "empty");
    const memory empty;
    CHECK_INVALID(empty.get_desc(), "empty memory object");
    CHECK_INVALID(empty.get_data_handle(), "empty memory object");
    CHECK_INVALID(empty.set_data_handle(nullptr), "empty memory object");
    // A buffer that no machine can hold is out_of_memory, not a crash or a tiny buffer. (Under
    // AddressSanitizer such a request aborts the program unless allocator_may_return_null=1.)
    const char *asan_options = std::getenv("ASAN_OPTIONS");
    const bool asan_aborts = asan_build
            && !(asan_options && std::strstr(asan_options, "allocator_may_return_null=1"));
    if (asan_aborts) {
        WARN("skipped under ASan: set ASAN_OPTIONS=allocator_may_return_null=1 to run it");
        return;
    }
    const memory::desc enormous({memory::dim(1) << 28, memory::dim(1) << 28}, dt::f32, tag::ab);
    CHECK_PRIM_ERROR(memory m(enormous), status::out_of_memory, "cannot allocate");
}

// ---- reorder --------------------------------------------------------------------------------

TEST_CASE("reorder refuses mismatched shapes, missing layouts and data", "[bad_input][reorder]") {
    const memory::desc a = plain({2, 3, 4}), b({2, 3, 4}, dt::f32, tag::acb);
    CHECK_INVALID(reorder(a, plain({2, 3, 5})), "differ from dst dims");
    CHECK_INVALID(reorder(a, plain({2, 12})), "differ from dst dims");
    CHECK_INVALID(reorder(a, memory::desc({2, 3, 4}, dt::f32, tag::any)), "'any'");
    CHECK_INVALID(reorder(memory::desc(), b), "empty");

    const reorder r(a, b);
    memory src(a), dst(b), other(plain({2, 3, 4}));
    CHECK_INVALID(r.execute(src, memory(plain({4, 3, 2}))), "differ from the ones");
    CHECK_INVALID(r.execute(other, src), "differ from the ones"); // b expected, a given
    CHECK_INVALID(r.execute(memory(a, nullptr), dst), "null data handle");
    CHECK_INVALID(r.execute(src, memory(b, nullptr)), "null data handle");
    CHECK_INVALID(r.execute(exec_args {{PRIM_ARG_FROM, src}}), "PRIM_ARG_TO");
    CHECK_INVALID(r.execute(exec_args {{PRIM_ARG_FROM, src}, {PRIM_ARG_TO, memory()}}),
                  "empty memory object");
    // Still works after all that.
    for (int i = 0; i < 24; ++i) data(src)[i] = float(i);
    r.execute(src, dst);
    CHECK(data(dst)[1] == 4.f); // acb: (0, 0, 1) sits after the 3 channels of (0, 0, 0)
}

// ---- convolution ----------------------------------------------------------------------------

TEST_CASE("convolution refuses wrong ranks", "[bad_input][conv]") {
    conv_case c;
    c.src = {2, 4};
    c.dst = {2, 6};
    c.wei = {6, 4};
    c.strides = c.dilates = c.pad_l = c.pad_r = {};
    CHECK_INVALID(c.create(), "src must have 3 to 5 dims");
    c = conv_case();
    c.src = {1, 1, 1, 1, 1, 1};
    CHECK_INVALID(c.create(), "src must have 3 to 5 dims");
    c = conv_case();
    c.dst = {2, 6, 9};
    CHECK_INVALID(c.create(), "dst has 3 dims, src has 4");
    c = conv_case();
    c.wei = {6, 4, 3};
    CHECK_INVALID(c.create(), "weights have 3 dims, expected 4 or 5");
    c = conv_case();
    c.wei = {1, 1, 6, 4, 3, 3};
    CHECK_INVALID(c.create(), "weights have 6 dims");
}

TEST_CASE("convolution refuses mismatched dims between src, weights, bias and dst",
          "[bad_input][conv]") {
    conv_case c;
    c.wei = {6, 3, 3, 3};
    CHECK_INVALID(c.create(), "do not fit ic=4 oc=6 g=1");
    c = conv_case();
    c.dst = {2, 5, 3, 3};
    CHECK_INVALID(c.create(), "do not fit ic=4 oc=5");
    c = conv_case();
    c.dst = {3, 6, 3, 3};
    CHECK_INVALID(c.create(), "dst mb=3 differs from src mb=2");
    c = conv_case();
    c.dst = {2, 6, 3, 4};
    CHECK_INVALID(c.create(), "dst spatial dim 1 is 4 but");
    c = conv_case();
    c.bias = {5};
    CHECK_INVALID(c.create(), "bias must have dims {oc} = {6}");
    c = conv_case();
    c.bias = {1, 6};
    CHECK_INVALID(c.create(), "bias must have dims {oc}");
    // Groups: 6 output channels cannot be split into 4 groups.
    c = conv_case();
    c.wei = {4, 1, 1, 3, 3};
    CHECK_INVALID(c.create(), "do not fit ic=4 oc=6 g=4");
    c = conv_case();
    c.wei = {0, 3, 2, 3, 3};
    CHECK_INVALID(c.create(), "g=0 must be positive");
}

TEST_CASE("convolution refuses zero sizes but runs mb0 as a no-op", "[bad_input][conv]") {
    conv_case c;
    c.src = {2, 0, 5, 5};
    c.wei = {6, 0, 3, 3};
    CHECK_INVALID(c.create(), "ic=0 must be positive");
    c = conv_case();
    c.wei = {0, 4, 3, 3};
    c.dst = {2, 0, 3, 3};
    c.bias = {0};
    CHECK_INVALID(c.create(), "oc=0 must be positive");
    c = conv_case();
    c.src = {2, 4, 0, 5};
    c.dst = {2, 6, 0, 3};
    CHECK_INVALID(c.create(), "must be positive");
    c = conv_case();
    c.wei = {6, 4, 0, 3};
    CHECK_INVALID(c.create(), "must be positive");

    c = conv_case();
    c.src = {0, 4, 5, 5};
    c.dst = {0, 6, 3, 3};
    convolution_forward::primitive_desc pd(c.desc());
    convolution_forward conv(pd);
    const memory none_src(pd.src_desc(), nullptr), none_dst(pd.dst_desc(), nullptr);
    memory wei(pd.weights_desc()), bias(pd.bias_desc());
    CHECK_NOTHROW(conv.execute({{PRIM_ARG_SRC, none_src}, {PRIM_ARG_WEIGHTS, wei},
                                {PRIM_ARG_BIAS, bias}, {PRIM_ARG_DST, none_dst}}));
}

TEST_CASE("convolution refuses bad strides, dilations and paddings", "[bad_input][conv]") {
    conv_case c;
    c.strides = {1, -1};
    CHECK_INVALID(c.create(), "stride must be positive");
    c.strides = {0, 1};
    CHECK_INVALID(c.create(), "stride must be positive");
    c = conv_case();
    c.dilates = {-1, 0};
    CHECK_INVALID(c.create(), "dilation non-negative");
    c = conv_case();
    c.pad_l = {-1, 0};
    c.dst = {2, 6, 2, 3}; // what padding -1 would give, so only the sign is wrong
    CHECK_INVALID(c.create(), "ph=-1 is negative");
    c = conv_case();
    c.pad_r = {-3, 0}; // removes more rows than the stride allows: no output row left
    CHECK_INVALID(c.create(), "dst spatial dim 0 is 3 but");
    // Paddings at the ends of int64: refused by comparing with the bounds, never by std::abs,
    // whose result for INT64_MIN does not exist (UBSan reported it before; issue 11).
    const memory::dim lowest = std::numeric_limits<memory::dim>::min(),
                      highest = std::numeric_limits<memory::dim>::max();
    for (const memory::dim bad : {lowest, lowest + 1, highest, -(memory::dim(1) << 60) - 1}) {
        INFO("padding " << bad);
        for (int side = 0; side < 2; ++side)
            for (int j = 0; j < 2; ++j) {
                c = conv_case();
                (side ? c.pad_r : c.pad_l)[j] = bad;
                CHECK_INVALID(c.create(), "problem too large");
            }
    }
    for (int which = 0; which < 4; ++which)
        for (const dims &bad : {dims {}, dims {1}, dims {1, 1, 1}}) {
            c = conv_case();
            dims *v[] = {&c.strides, &c.dilates, &c.pad_l, &c.pad_r};
            *v[which] = bad;
            CHECK_INVALID(c.create(), "need 2 values each");
        }
}

TEST_CASE("convolution refuses an unknown algorithm, empty descs and other types",
          "[bad_input][conv]") {
    conv_case c;
    c.alg = static_cast<algorithm>(12345);
    CHECK_INVALID(c.create(), "algorithm must be convolution_direct");
    c.alg = algorithm::eltwise_relu;
    CHECK_INVALID(c.create(), "algorithm must be convolution_direct");
    c.alg = algorithm::undef;
    CHECK_INVALID(c.create(), "algorithm must be convolution_direct");

    c = conv_case();
    const auto d = c.desc();
    const memory::desc none;
    CHECK_INVALID(convolution_forward::primitive_desc(convolution_forward::desc(d.prop, d.alg,
                          none, d.weights, d.bias, d.dst, c.strides, c.dilates, c.pad_l, c.pad_r)),
                  "src desc is empty");
    CHECK_INVALID(convolution_forward::primitive_desc(convolution_forward::desc(d.prop, d.alg,
                          d.src, none, d.bias, d.dst, c.strides, c.dilates, c.pad_l, c.pad_r)),
                  "weights desc is empty");
    CHECK_INVALID(convolution_forward::primitive_desc(convolution_forward::desc(d.prop, d.alg,
                          d.src, d.weights, d.bias, none, c.strides, c.dilates, c.pad_l, c.pad_r)),
                  "dst desc is empty");
    // An 'any' desc may carry any data type; the primitive still needs f32 here.
    const memory::desc undef_any({6}, dt::undef, tag::any);
    CHECK_INVALID(convolution_forward::primitive_desc(convolution_forward::desc(d.prop, d.alg,
                          d.src, d.weights, undef_any, d.dst, c.strides, c.dilates, c.pad_l,
                          c.pad_r)),
                  "bias data type must be f32");
}

TEST_CASE("convolution refuses sizes that overflow", "[bad_input][conv][huge]") {
    const memory::desc any_src({1, 1, huge, huge}, dt::f32, tag::any),
            any_wei({1, 1, 1, 1}, dt::f32, tag::any),
            any_dst({1, 1, huge, huge}, dt::f32, tag::any);
    CHECK_INVALID(convolution_forward::primitive_desc(convolution_forward::desc(
                          prop_kind::forward_inference, algorithm::convolution_direct, any_src,
                          any_wei, any_dst, {1, 1}, {0, 0}, {0, 0}, {0, 0})),
                  "too large");
    // Channels whose product with the kernel overflows.
    const memory::desc src2({1, huge, 1, 1}, dt::f32, tag::any),
            wei2({huge, huge, 1, 1}, dt::f32, tag::any), dst2({1, huge, 1, 1}, dt::f32, tag::any);
    CHECK_INVALID(convolution_forward::primitive_desc(convolution_forward::desc(
                          prop_kind::forward_inference, algorithm::convolution_direct, src2, wei2,
                          dst2, {1, 1}, {0, 0}, {0, 0}, {0, 0})),
                  "too large");
    // A dilation whose tap extent (k - 1) * (d + 1) + 1 overflows.
    conv_case c;
    c.dilates = {memory::dim(1) << 62, 0};
    c.dst = {2, 6, 1, 3};
    CHECK_INVALID(c.create(), "too large");
    // Groups times channels per group overflows (g * oc/g must not wrap around to oc).
    const memory::dim g = (memory::dim(1) << 62) + 1; // g * 4 wraps to 4 in 64 bits
    const memory::desc src3({1, 4, 3, 3}, dt::f32, tag::any),
            wei3({g, 4, 4, 1, 1}, dt::f32, tag::any), dst3({1, 4, 3, 3}, dt::f32, tag::any);
    CHECK_INVALID(convolution_forward::primitive_desc(convolution_forward::desc(
                          prop_kind::forward_inference, algorithm::convolution_direct, src3, wei3,
                          dst3, {1, 1}, {0, 0}, {0, 0}, {0, 0})),
                  "g=4611686018427387905");
}

TEST_CASE("convolution with extreme but valid strides and padding computes the right value",
          "[bad_input][conv][huge]") {
    // iw5 kw3 with a stride of 2^62: one output, the first three inputs.
    // Padding of 2^40 with a stride of 2^41: one output, reading only padding (so bias alone).
    struct shape {
        memory::dim stride, pad;
        float expect;
    };
    const shape shapes[] = {{memory::dim(1) << 62, 0, 1 + 2 + 3 + 100.f},
                            {huge * 2, huge, 100.f}};
    for (const cpu_isa isa : {cpu_isa::all, cpu_isa::avx2, cpu_isa::none})
        for (const shape &s : shapes) {
            INFO("isa " << cpu_isa_name(isa) << " stride " << s.stride << " pad " << s.pad);
            primitive_attr attr;
            attr.set_max_cpu_isa(isa);
            const convolution_forward::desc d(prop_kind::forward_inference,
                    algorithm::convolution_direct, plain({1, 1, 5}), plain({1, 1, 3}),
                    plain({1}), plain({1, 1, 1}), {s.stride}, {0}, {s.pad}, {0});
            const outcome created = run([&]() { convolution_forward::primitive_desc pd(d, attr); });
            INFO("creation: " << created.message);
            CHECK(created.message == "no exception");
            if (created.message != "no exception") continue;
            convolution_forward::primitive_desc pd(d, attr);
            bound_args a(pd);
            const float src[] = {1, 2, 3, 4, 5};
            std::copy(src, src + 5, data(a.src));
            std::fill(data(a.wei), data(a.wei) + 3, 1.f);
            data(a.bias)[0] = 100.f;
            convolution_forward(pd).execute(a.all());
            CHECK(data(a.dst)[0] == s.expect);
        }
}

// ---- execution arguments --------------------------------------------------------------------

TEST_CASE("execute refuses missing, empty, null and wrongly laid out arguments",
          "[bad_input][execute]") {
    conv_case c;
    const memory::desc any4({2, 4, 5, 5}, dt::f32, tag::any), anyw({6, 4, 3, 3}, dt::f32, tag::any),
            anyb({6}, dt::f32, tag::any), anyd({2, 6, 3, 3}, dt::f32, tag::any);
    for (const cpu_isa isa : {cpu_isa::all, cpu_isa::avx2, cpu_isa::none}) {
        INFO("isa " << cpu_isa_name(isa));
        primitive_attr attr;
        attr.set_max_cpu_isa(isa);
        const convolution_forward::primitive_desc pd(
                {prop_kind::forward_inference, algorithm::convolution_direct, any4, anyw, anyb,
                 anyd, {1, 1}, {0, 0}, {0, 0}, {0, 0}},
                attr);
        const convolution_forward conv(pd);
        const bound_args a(pd);
        CHECK_NOTHROW(conv.execute(a.all()));

        for (const int arg : {PRIM_ARG_SRC, PRIM_ARG_WEIGHTS, PRIM_ARG_BIAS, PRIM_ARG_DST}) {
            const char *name = arg == PRIM_ARG_SRC ? "src"
                    : arg == PRIM_ARG_WEIGHTS      ? "weights"
                    : arg == PRIM_ARG_BIAS         ? "bias"
                                                   : "dst";
            INFO("argument " << name);
            exec_args args = a.all();
            args.erase(arg);
            CHECK_INVALID(conv.execute(args), std::string(name) + " argument is missing");
            args[arg] = memory();
            CHECK_INVALID(conv.execute(args), std::string(name) + " argument is missing");
            args[arg] = memory(a.all().at(arg).get_desc(), nullptr);
            CHECK_INVALID(conv.execute(args), std::string(name) + " memory has no data");
            // An 'any' memory is not a layout.
            const memory::desc &reported = a.all().at(arg).get_desc();
            static float scratch[1024];
            args[arg] = memory(memory::desc(reported.get_dims(), dt::f32, tag::any), scratch);
            CHECK_INVALID(conv.execute(args), std::string(name) + " memory desc any");
            // Same dims, another layout than the one reported.
            const dims &rd = reported.get_dims();
            memory::desc other = plain(rd);
            if (reported.layout() == "a") other = memory::desc(rd, dt::f32, "A8a");
            if (reported.layout() == "abcd") other = memory::desc(rd, dt::f32, tag::acdb);
            args[arg] = memory(other);
            CHECK_INVALID(conv.execute(args), "differs from the primitive's");
            // Same layout, other dims.
            dims bigger = reported.get_dims();
            bigger[0] += 1;
            args[arg] = memory(plain(bigger));
            CHECK_INVALID(conv.execute(args), "differs from the primitive's");
        }
    }
}

TEST_CASE("execute refuses another primitive kind's arguments", "[bad_input][execute]") {
    // Eltwise arguments (no weights) to a convolution, convolution arguments to an eltwise.
    conv_case c;
    const convolution_forward::primitive_desc conv_pd(c.desc());
    const eltwise_forward::primitive_desc elt_pd(
            {prop_kind::forward_inference, algorithm::eltwise_relu, plain(c.src), 0.f, 0.f});
    const bound_args conv_args(conv_pd), elt_args(elt_pd);
    // src fits both (same dims and layout); dst does not.
    CHECK_INVALID(convolution_forward(conv_pd).execute(elt_args.all()), "dst memory desc");
    CHECK_INVALID(eltwise_forward(elt_pd).execute(conv_args.all()), "dst memory desc");
    // The eltwise's arguments with the convolution's dst: now the weights are missing.
    exec_args mixed = elt_args.all();
    mixed[PRIM_ARG_DST] = conv_args.dst;
    CHECK_INVALID(convolution_forward(conv_pd).execute(mixed), "weights argument is missing");
    // An inner product's arguments to the convolution: src has the wrong rank.
    ip_case ip;
    const inner_product_forward::primitive_desc ip_pd(ip.desc());
    const bound_args ip_args(ip_pd);
    CHECK_INVALID(convolution_forward(conv_pd).execute(ip_args.all()), "src memory desc");
    CHECK_INVALID(inner_product_forward(ip_pd).execute(conv_args.all()), "src memory desc");
}

// ---- inner product --------------------------------------------------------------------------

TEST_CASE("inner product refuses wrong ranks and mismatched dims", "[bad_input][ip]") {
    ip_case c;
    c.src = {3};
    c.wei = {7};
    CHECK_INVALID(c.create(), "src must have 2 to 5 dims");
    c = ip_case();
    c.src = {3, 5, 1, 1, 1, 1};
    c.wei = {7, 5, 1, 1, 1, 1};
    CHECK_INVALID(c.create(), "src must have 2 to 5 dims");
    c = ip_case();
    c.wei = {7, 5, 1};
    CHECK_INVALID(c.create(), "weights have 3 dims, src has 2");
    c = ip_case();
    c.dst = {3, 7, 1};
    CHECK_INVALID(c.create(), "dst must have 2 dims");
    c = ip_case();
    c.wei = {7, 4};
    CHECK_INVALID(c.create(), "must be (oc=7, ic=5");
    c = ip_case();
    c.dst = {3, 8};
    CHECK_INVALID(c.create(), "must be (oc=8, ic=5");
    c = ip_case();
    c.dst = {4, 7};
    CHECK_INVALID(c.create(), "dst mb=4 differs from src mb=3");
    c = ip_case();
    c.src = {3, 5, 2, 2};
    c.wei = {7, 5, 2, 3};
    CHECK_INVALID(c.create(), "weights spatial dims must equal the src spatial dims");
    c = ip_case();
    c.bias = {6};
    CHECK_INVALID(c.create(), "bias must have dims {oc} = {7}");
    c = ip_case();
    c.src = {3, 0};
    c.wei = {7, 0};
    CHECK_INVALID(c.create(), "ic=0 must be positive");
    c = ip_case();
    c.src = {3, 5, 0};
    c.wei = {7, 5, 0};
    CHECK_INVALID(c.create(), "must be positive");
}

TEST_CASE("inner product refuses sizes that overflow", "[bad_input][ip][huge]") {
    const memory::desc src({huge, huge}, dt::f32, tag::any), wei({3, huge}, dt::f32, tag::any),
            dst({huge, 3}, dt::f32, tag::any);
    CHECK_INVALID(inner_product_forward::primitive_desc(
                          {prop_kind::forward_inference, src, wei, dst}),
                  "too large");
    const memory::desc src2({2, 3, huge, huge}, dt::f32, tag::any),
            wei2({5, 3, huge, huge}, dt::f32, tag::any), dst2({2, 5}, dt::f32, tag::any);
    CHECK_INVALID(inner_product_forward::primitive_desc(
                          {prop_kind::forward_inference, src2, wei2, dst2}),
                  "too large");
}

// ---- eltwise --------------------------------------------------------------------------------

TEST_CASE("eltwise refuses unknown algorithms, NaN and forbidden parameters",
          "[bad_input][eltwise]") {
    const memory::desc md = plain({4, 5});
    const auto create = [&](algorithm alg, float alpha, float beta) {
        eltwise_forward::primitive_desc pd({prop_kind::forward_inference, alg, md, alpha, beta});
    };
    for (const int bad : {-1, 0, 1, 10000, 0x7fffffff})
        CHECK_INVALID(create(static_cast<algorithm>(bad), 0.f, 0.f), "unknown eltwise algorithm");
    CHECK_INVALID(create(algorithm::eltwise_relu, nan_f, 0.f), "relu: alpha is NaN");
    CHECK_INVALID(create(algorithm::eltwise_linear, 1.f, nan_f), "linear: beta is NaN");
    CHECK_INVALID(create(algorithm::eltwise_soft_relu, 0.f, 0.f), "alpha must be non-zero");
    CHECK_INVALID(create(algorithm::eltwise_celu, 0.f, 0.f), "alpha must be non-zero");
    CHECK_INVALID(create(algorithm::eltwise_softplus, -0.f, 0.f), "alpha must be non-zero");
}

TEST_CASE("eltwise refuses bad ranks, dims and descs", "[bad_input][eltwise]") {
    const auto create = [](const memory::desc &src, const memory::desc &dst) {
        eltwise_forward::primitive_desc pd(
                {prop_kind::forward_inference, algorithm::eltwise_relu, src, dst, 0.f, 0.f});
    };
    CHECK_INVALID(create(plain({1, 1, 1, 1, 1, 1}), memory::desc()), "src must have 1 to 5 dims");
    CHECK_INVALID(create(plain({4, 5}), plain({5, 4})), "dst dims differ from src dims");
    CHECK_INVALID(create(plain({4, 5}), plain({4, 5, 1})), "dst dims differ from src dims");
    CHECK_INVALID(create(memory::desc(), plain({4, 5})), "src desc is empty");
    CHECK_INVALID(create(memory::desc({4, 5}, dt::undef, tag::any), memory::desc()),
                  "src data type must be f32");
    CHECK_INVALID(create(plain({4, 5}), memory::desc({4, 5}, dt::undef, tag::any)),
                  "dst data type must be f32");
    // Sizes whose product overflows.
    const memory::desc enormous({huge, huge}, dt::f32, tag::any);
    CHECK_INVALID(create(enormous, memory::desc()), "too large");
    // A zero-sized tensor is an empty problem: it runs, without data.
    eltwise_forward::primitive_desc pd(
            {prop_kind::forward_inference, algorithm::eltwise_relu, plain({4, 0}), 0.f, 0.f});
    const memory empty_mem(pd.src_desc(), nullptr);
    CHECK_NOTHROW(eltwise_forward(pd).execute(
            {{PRIM_ARG_SRC, empty_mem}, {PRIM_ARG_DST, empty_mem}}));
}

// ---- attributes -----------------------------------------------------------------------------

TEST_CASE("post_ops refuse unknown algorithms and NaN parameters", "[bad_input][attr]") {
    post_ops po;
    for (const int bad : {-7, 0, 1, 33, 5000})
        CHECK_INVALID(po.append_eltwise(static_cast<algorithm>(bad), 0.f, 0.f),
                      "unknown eltwise algorithm");
    CHECK_INVALID(po.append_eltwise(algorithm::eltwise_relu, nan_f, 0.f), "alpha is NaN");
    CHECK_INVALID(po.append_eltwise(algorithm::eltwise_clip, 0.f, nan_f), "beta is NaN");
    CHECK_INVALID(po.append_eltwise(algorithm::eltwise_tanh, 0.f, 0.f, nan_f), "scale is NaN");
    CHECK_INVALID(po.append_eltwise(algorithm::eltwise_celu, 0.f, 0.f), "alpha must be non-zero");
    CHECK_INVALID(po.append_sum(nan_f), "(sum): scale is NaN");
    CHECK(po.len() == 0); // nothing refused was appended
    po.append_sum(0.5f);
    CHECK_INVALID(po.append_eltwise(static_cast<algorithm>(999), 0.f, 0.f), "post-op 1 (eltwise)");
    CHECK_INVALID(po.get_kind(1), "index 1 is out of range");
    CHECK_INVALID(po.get_kind(-1), "index -1 is out of range");
    algorithm alg;
    float a, b, s;
    CHECK_INVALID(po.get_params_eltwise(0, alg, a, b, s), "is a sum, not an eltwise");
    po.append_eltwise(algorithm::eltwise_relu, 0.f, 0.f);
    CHECK_INVALID(po.get_params_sum(1, s), "is an eltwise, not a sum");
    CHECK_INVALID(po.get_params_sum(2, s), "out of range");
}

TEST_CASE("out-of-range ISA caps and propagation kinds are refused", "[bad_input][attr]") {
    for (const int bad : {-1, 5, 100}) { // all is 4
        INFO("cpu_isa " << bad);
        primitive_attr attr;
        attr.set_max_cpu_isa(static_cast<cpu_isa>(bad));
        CHECK_INVALID(eltwise_forward::primitive_desc({prop_kind::forward_inference,
                              algorithm::eltwise_relu, plain({4, 5}), 0.f, 0.f}, attr),
                      "cpu_isa");
    }
    CHECK_INVALID(eltwise_forward::primitive_desc({static_cast<prop_kind>(9),
                          algorithm::eltwise_relu, plain({4, 5}), 0.f, 0.f}),
                  "prop_kind");
    conv_case c;
    auto d = c.desc();
    d.prop = static_cast<prop_kind>(-3);
    CHECK_INVALID(convolution_forward::primitive_desc pd(d), "prop_kind");
}

// ---- binary and prelu operands --------------------------------------------------------------

namespace {

// conv_case's convolution (dst 2x6x3x3) with a chain.
convolution_forward::primitive_desc conv_with(const post_ops &po) {
    primitive_attr attr;
    attr.set_post_ops(po);
    return convolution_forward::primitive_desc(conv_case().desc(), attr);
}

} // namespace

TEST_CASE("src1 dims that do not broadcast are refused at creation", "[bad_input][binary]") {
    const std::string prefix = "convolution mb2ic4ih5oc6oh3kh3: ";
    post_ops po;
    po.append_sum();
    po.append_binary(algorithm::binary_add, plain({1, 5, 1, 1}));
    CHECK_INVALID(conv_with(po),
                  prefix + "post-op 1 (add) src1 dims 1x5x1x1 do not broadcast against the "
                           "destination 2x6x3x3: dim 1 is 5, it must be 6 or 1");
    post_ops last_dim;
    last_dim.append_binary(algorithm::binary_ge, plain({2, 6, 3, 4}));
    CHECK_INVALID(conv_with(last_dim), "post-op 0 (ge) src1 dims 2x6x3x4 do not broadcast against "
                                       "the destination 2x6x3x3: dim 3 is 4, it must be 3 or 1");
    // A dim larger than dst's is no broadcast either.
    post_ops mb;
    mb.append_binary(algorithm::binary_mul, plain({4, 1, 1, 1}));
    CHECK_INVALID(conv_with(mb), "dim 0 is 4, it must be 2 or 1");
    // The first bad entry is named, after good ones.
    post_ops second;
    second.append_binary(algorithm::binary_add, plain({1, 6, 1, 1}));
    second.append_prelu(post_ops::policy::per_oc);
    second.append_binary(algorithm::binary_div, plain({1, 6, 1, 2}));
    CHECK_INVALID(conv_with(second), "post-op 2 (div) src1 dims 1x6x1x2 do not broadcast");
    // The same dims broadcast when they fit: creation succeeds.
    post_ops good;
    good.append_binary(algorithm::binary_add, plain({1, 6, 1, 1}));
    good.append_binary(algorithm::binary_add, plain({2, 1, 3, 3}));
    good.append_binary(algorithm::binary_add, plain({2, 6, 3, 3}));
    CHECK_NOTHROW(conv_with(good));
}

TEST_CASE("src1 of the wrong rank is refused at creation", "[bad_input][binary]") {
    post_ops po;
    po.append_binary(algorithm::binary_mul, plain({6}));
    CHECK_INVALID(conv_with(po), "post-op 0 (mul) src1 dims 6 have rank 1, the destination "
                                 "2x6x3x3 has rank 4");
    post_ops five;
    five.append_eltwise(algorithm::eltwise_relu, 0.f, 0.f);
    five.append_binary(algorithm::binary_sub, plain({1, 6, 1, 1, 1}));
    CHECK_INVALID(conv_with(five), "post-op 1 (sub) src1 dims 1x6x1x1x1 have rank 5");
    // Inner product: dst is 2D, a 4D src1 is refused (the convolution's habit).
    post_ops ip_po;
    ip_po.append_binary(algorithm::binary_add, plain({1, 7, 1, 1}));
    primitive_attr attr;
    attr.set_post_ops(ip_po);
    CHECK_INVALID(inner_product_forward::primitive_desc(ip_case().desc(), attr),
                  "inner_product mb3ic5oc7: post-op 0 (add) src1 dims 1x7x1x1 have rank 4, the "
                  "destination 3x7 has rank 2");
}

TEST_CASE("execute refuses missing, empty and null operands", "[bad_input][binary][execute]") {
    post_ops po;
    po.append_sum();
    po.append_binary(algorithm::binary_add, post_ops::policy::per_oc);
    po.append_prelu(post_ops::policy::per_tensor);
    const auto pd = conv_with(po);
    const convolution_forward conv(pd);
    const bound_args a(pd);
    const int add_arg = PRIM_ARG_ATTR_MULTIPLE_POST_OP(1) | PRIM_ARG_SRC_1;
    const int prelu_arg = PRIM_ARG_ATTR_MULTIPLE_POST_OP(2) | PRIM_ARG_WEIGHTS;
    const memory add(pd.query_md(add_arg)), slopes(pd.query_md(prelu_arg));
    exec_args args = a.all();
    args[add_arg] = add;
    args[prelu_arg] = slopes;
    CHECK_NOTHROW(conv.execute(args));

    exec_args no_add = args;
    no_add.erase(add_arg);
    CHECK_INVALID(conv.execute(no_add), "post-op 1 (add) src1 argument is missing");
    no_add[add_arg] = memory();
    CHECK_INVALID(conv.execute(no_add), "post-op 1 (add) src1 argument is missing");
    no_add[add_arg] = memory(add.get_desc(), nullptr);
    CHECK_INVALID(conv.execute(no_add), "post-op 1 (add) src1 memory has no data");

    exec_args no_slopes = args;
    no_slopes.erase(prelu_arg);
    CHECK_INVALID(conv.execute(no_slopes), "post-op 2 (prelu) weights argument is missing");
    // Under another entry's number or the other kind's id, an operand is not found.
    no_slopes[PRIM_ARG_ATTR_MULTIPLE_POST_OP(1) | PRIM_ARG_WEIGHTS] = slopes;
    no_slopes[PRIM_ARG_ATTR_MULTIPLE_POST_OP(2) | PRIM_ARG_SRC_1] = slopes;
    no_slopes[PRIM_ARG_ATTR_MULTIPLE_POST_OP(3) | PRIM_ARG_WEIGHTS] = slopes;
    CHECK_INVALID(conv.execute(no_slopes), "post-op 2 (prelu) weights argument is missing");

    // The message names the primitive as every argument check does.
    CHECK_INVALID(conv.execute(a.all()),
                  "convolution mb2ic4ih5oc6oh3kh3: post-op 1 (add) src1 argument is missing");
    // Extra arguments the chain does not have are ignored, as for every primitive.
    args[PRIM_ARG_ATTR_MULTIPLE_POST_OP(0) | PRIM_ARG_SRC_1] = add;
    CHECK_NOTHROW(conv.execute(args));
}

TEST_CASE("execute refuses an operand whose desc differs from the queried one",
          "[bad_input][binary][execute]") {
    post_ops po;
    po.append_binary(algorithm::binary_mul, post_ops::policy::per_mb_spatial);
    po.append_binary(algorithm::binary_sub, memory::desc({2, 6, 3, 3}, dt::f32, tag::nhwc));
    po.append_prelu(post_ops::policy::per_oc);
    const auto pd = conv_with(po);
    const convolution_forward conv(pd);
    const bound_args a(pd);
    exec_args args = a.all();
    for (int i = 0; i < 3; ++i) {
        const int arg = PRIM_ARG_ATTR_MULTIPLE_POST_OP(i) | (i == 2 ? PRIM_ARG_WEIGHTS : PRIM_ARG_SRC_1);
        args[arg] = memory(pd.query_md(arg));
    }
    CHECK_NOTHROW(conv.execute(args));
    const int mul_arg = PRIM_ARG_ATTR_MULTIPLE_POST_OP(0) | PRIM_ARG_SRC_1;
    const int sub_arg = PRIM_ARG_ATTR_MULTIPLE_POST_OP(1) | PRIM_ARG_SRC_1;
    const int prelu_arg = PRIM_ARG_ATTR_MULTIPLE_POST_OP(2) | PRIM_ARG_WEIGHTS;

    exec_args bad = args;
    bad[mul_arg] = memory(plain({2, 6, 3, 3})); // per_tensor dims for a per_mb_spatial operand
    CHECK_INVALID(conv.execute(bad), "post-op 0 (mul) src1 memory desc");
    CHECK_INVALID(conv.execute(bad), "differs from the primitive's");
    bad = args;
    bad[sub_arg] = memory(plain({2, 6, 3, 3})); // the given src1 was nhwc
    CHECK_INVALID(conv.execute(bad), "post-op 1 (sub) src1 memory desc");
    bad = args;
    bad[prelu_arg] = memory(memory::desc({1, 6, 1, 1}, dt::f32, std::string("aBcd8b")));
    CHECK_INVALID(conv.execute(bad), "post-op 2 (prelu) weights memory desc");
    bad = args;
    bad[prelu_arg] = memory(memory::desc({1, 6, 1, 1}, dt::f32, tag::any), nullptr);
    CHECK_INVALID(conv.execute(bad), "post-op 2 (prelu) weights memory desc any");
}

TEST_CASE("execute refuses an operand overlapping dst", "[bad_input][binary][execute]") {
    post_ops po;
    po.append_sum();
    po.append_binary(algorithm::binary_add, post_ops::policy::per_tensor);
    po.append_prelu(post_ops::policy::common);
    const auto pd = conv_with(po);
    const convolution_forward conv(pd);
    const bound_args a(pd);
    const int add_arg = PRIM_ARG_ATTR_MULTIPLE_POST_OP(1) | PRIM_ARG_SRC_1;
    const int prelu_arg = PRIM_ARG_ATTR_MULTIPLE_POST_OP(2) | PRIM_ARG_WEIGHTS;
    float *dst = static_cast<float *>(a.dst.get_data_handle());
    exec_args args = a.all();
    args[prelu_arg] = memory(pd.query_md(prelu_arg));
    // The per_tensor operand is dst's own buffer (same desc): refused, naming the entry.
    args[add_arg] = memory(pd.query_md(add_arg), dst);
    CHECK_INVALID(conv.execute(args), "dst and post-op 1 (add) src1 overlap in memory (an operand "
                                      "is read while dst is written");
    // One slope inside dst's buffer, at its last element.
    args[add_arg] = memory(pd.query_md(add_arg));
    args[prelu_arg] = memory(pd.query_md(prelu_arg), dst + 2 * 6 * 3 * 3 - 1);
    CHECK_INVALID(conv.execute(args), "dst and post-op 2 (prelu) weights overlap in memory");
    // Just past dst's end is fine; so is an operand sharing memory with src (both are read).
    std::vector<float> big(2 * 6 * 3 * 3 + 1);
    args[PRIM_ARG_DST] = memory(pd.dst_desc(), big.data());
    args[prelu_arg] = memory(pd.query_md(prelu_arg), big.data() + 2 * 6 * 3 * 3);
    CHECK_NOTHROW(conv.execute(args));
    args[prelu_arg] = memory(pd.query_md(prelu_arg), a.src.get_data_handle());
    CHECK_NOTHROW(conv.execute(args));
}

TEST_CASE("fusion strings refuse unknown policies and malformed binary entries",
          "[bad_input][binary][fusion]") {
    CHECK_INVALID(parse_post_ops("add:f32:per_nothing"),
                  "unknown policy 'per_nothing' (common, per_oc, per_dim_0, per_dim_01, "
                  "per_mb_spatial, per_tensor or maskN) at position 8");
    CHECK_INVALID(parse_post_ops("sum+prelu:per_channel"), "unknown policy 'per_channel' (");
    CHECK_INVALID(parse_post_ops("sum+prelu:per_channel"), "or maskN) at position 10");
    CHECK_INVALID(parse_post_ops("add"), "needs a data type (add:f32) at position 3");
    CHECK_INVALID(parse_post_ops("add:f16"), "unsupported data type 'f16' (f32, s32, s8 or u8) at position 4");
    CHECK_INVALID(parse_post_ops("add:f32:per_oc:nchw"), "extra parameter 'nchw'");
    CHECK_INVALID(parse_post_ops_list("relu,mul:f32:maskx"), "unknown policy 'maskx' (");
    CHECK_INVALID(parse_post_ops_list("relu,mul:f32:maskx"), "or maskN) at position 13");
}

// ---- fusion strings -------------------------------------------------------------------------

TEST_CASE("malformed fusion strings name the token and its position", "[bad_input][fusion]") {
    CHECK_INVALID(parse_post_ops("relu:"), "missing number at position 5");
    CHECK_INVALID(parse_post_ops("relu+"), "empty post-op at position 5");
    CHECK_INVALID(parse_post_ops("+relu"), "empty post-op at position 0");
    CHECK_INVALID(parse_post_ops("sum++relu"), "empty post-op at position 4");
    CHECK_INVALID(parse_post_ops("foo"), "unknown algorithm 'foo' at position 0");
    CHECK_INVALID(parse_post_ops("sum+Relu"), "unknown algorithm 'Relu' at position 4");
    CHECK_INVALID(parse_post_ops("relu:nan"), "bad number 'nan' at position 5");
    CHECK_INVALID(parse_post_ops("relu:infinity"), "bad number 'infinity'");
    CHECK_INVALID(parse_post_ops("relu:0x10"), "bad number '0x10'");
    CHECK_INVALID(parse_post_ops("relu: 1"), "bad number ' 1'");
    CHECK_INVALID(parse_post_ops("relu:1e"), "bad number '1e'");
    CHECK_INVALID(parse_post_ops("relu:."), "bad number '.'");
    CHECK_INVALID(parse_post_ops("sum:1:2:u8:4"), "extra parameter '4'");
    CHECK_INVALID(parse_post_ops("relu:1:2:3:4"), "extra parameter '4'");
    CHECK_INVALID(parse_post_ops("sum,relu"), "unexpected ','");
    CHECK_INVALID(parse_post_ops("soft_relu:0"), "alpha must be non-zero");
    CHECK_INVALID(parse_post_ops(std::string("relu\0x", 6)), "unknown algorithm");
    CHECK_INVALID(parse_post_ops_list("relu,,foo"), "unknown algorithm 'foo' at position 6");
    // Long and extreme but valid input parses without trouble.
    std::string many = "relu";
    for (int i = 0; i < 5000; ++i) many += "+sum:0.5+relu";
    CHECK(parse_post_ops(many).len() == 10001);
    float alpha = 0.f, beta = 0.f, scale = 0.f;
    algorithm alg = algorithm::undef;
    parse_post_ops("linear:1e99999999999999999999:-1e-99999999999999:" + std::string(20000, '0')
                   + "2.5")
            .get_params_eltwise(0, alg, alpha, beta, scale);
    CHECK(alpha == std::numeric_limits<float>::infinity());
    CHECK(beta == 0.f);
    CHECK(std::signbit(beta));
    CHECK(scale == 2.5f);
    CHECK_INVALID(parse_post_ops(many + "+" + std::string(100000, ':')),
                  "unknown algorithm '' at position 65005");
}

namespace {

// Random text from the fusion grammar's alphabet: whole tokens (names, numbers, separators) mixed
// with single characters, so that both near-valid and garbage strings come out.
std::string random_fusion_string(std::mt19937 &rng) {
    static const std::vector<std::string> tokens = {
            "sum", "relu", "tanh", "clip", "clip_v2", "soft_relu", "bounded_relu", "leaky_relu",
            "gelu", "gelu_erf", "pow", "linear", "logsigmoid", "celu", "srelu", "inf", "-inf",
            "nan", "1", "0", "0.5", "-2", ".5", "5.", "1e38", "1e+39", "1e-45", "-0", "+1", "e",
            "E", ":", ":", ":", "+", "+", ",", ".", "-", " ", "x", "_", "add:f32", "prelu",
            "max", "f32", "per_oc", "per_tensor", "per_mb_spatial", "mask", "mask5"};
    static const std::string chars = "abcdefghijklmnopqrstuvwxyz_0123456789:+-,.eE inf";
    std::string s;
    const int n = std::uniform_int_distribution<int>(0, 10)(rng);
    for (int i = 0; i < n; ++i) {
        const int pick = std::uniform_int_distribution<int>(0, 99)(rng);
        if (pick < 60)
            s += tokens[std::uniform_int_distribution<size_t>(0, tokens.size() - 1)(rng)];
        else if (pick < 97)
            s += chars[std::uniform_int_distribution<size_t>(0, chars.size() - 1)(rng)];
        else
            s += static_cast<char>(std::uniform_int_distribution<int>(1, 255)(rng));
    }
    return s;
}

size_t error_position(const std::string &message) {
    const std::string key = " at position ";
    const size_t at = message.rfind(key);
    if (at == std::string::npos) return std::string::npos;
    return std::strtoull(message.c_str() + at + key.size(), nullptr, 10);
}

} // namespace

TEST_CASE("random fusion strings either parse and round-trip or throw prim::error",
          "[bad_input][fusion][fuzz]") {
    std::mt19937 rng(20261122);
    int parsed = 0, refused = 0;
    for (int iter = 0; iter < 4000; ++iter) {
        const std::string s = random_fusion_string(rng);
        INFO("fusion string '" << s << "'");
        std::vector<post_ops> chains;
        const outcome o = run([&]() { chains = parse_post_ops_list(s); });
        if (o.message == "no exception") {
            ++parsed;
            // One chain per comma-separated piece, and each prints to a string that parses back
            // to the same chain, bit for bit.
            REQUIRE(chains.size() == size_t(std::count(s.begin(), s.end(), ',')) + 1);
            for (const post_ops &po : chains) {
                const std::string printed = to_string(po);
                INFO("printed '" << printed << "'");
                const outcome again = run([&]() { CHECK(parse_post_ops(printed) == po); });
                CHECK(again.message == "no exception");
            }
            continue;
        }
        ++refused;
        CHECK(o.threw_prim);
        CHECK(o.st == status::invalid_arguments);
        CHECK_THAT(o.message, Catch::Contains("bad fusion string"));
        const size_t pos = error_position(o.message);
        CHECK(pos != std::string::npos);
        CHECK(pos <= s.size());
        // A single chain (no comma) gives the same verdict through parse_post_ops.
        if (s.find(',') == std::string::npos) {
            const outcome single = run([&]() { parse_post_ops(s); });
            CHECK(single.threw_prim);
            CHECK(single.message == o.message);
        }
    }
    // Both outcomes are exercised, or the fuzz proves nothing.
    CHECK(parsed > 200);
    CHECK(refused > 200);
}
