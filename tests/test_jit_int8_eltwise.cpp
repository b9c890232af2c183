// The JIT eltwise on int8 data (src/jit/eltwise/, typed_vectors.hpp) against the reference (ISA
// cap none) and against values computed here: every src and dst type pair, in place, rows with
// tails (a plane of 15 elements: AVX2 moves a byte tail one byte at a time), channels-last and
// blocked layouts, every post-op kind with typed operands, the store's rounding and saturation
// (NaN, infinities, halves), tails that end at a guard page; and the f32 primitives built on the
// same pass (eltwise, binary, both normalizations, softmax) with int8 operands.
#include "int8_test_util.hpp"

#include <sys/mman.h>
#include <unistd.h>

namespace {

const dt all_types[] = {dt::f32, dt::s32, dt::s8, dt::u8};

struct eltwise_case {
    dims d = {2, 19, 3, 5};
    std::string tag = "abcd";
    dt src = dt::u8, dst = dt::u8;
    algorithm alg = algorithm::eltwise_relu;
    float alpha = 0.f, beta = 0.f;
    std::string chain;
    bool in_place = false;
    std::string str() const {
        return std::string(data_type_name(src)) + "->" + data_type_name(dst) + " " + tag + " alg "
               + algorithm_name(alg) + " alpha " + std::to_string(alpha) + " chain '" + chain + "'"
               + (in_place ? " in place" : "");
    }
};

struct eltwise_inputs {
    memory src, dst_old;
    std::map<int, std::vector<float>> operands;
};

eltwise_inputs make_inputs(const eltwise_case &c, uint32_t seed) {
    std::mt19937 gen(seed);
    eltwise_inputs in;
    const auto [lo, hi] = full_range(c.src);
    in.src = typed_memory(c.d, c.src, fill(gen, count(c.d), lo, hi));
    const auto [dlo, dhi] = full_range(c.dst);
    in.dst_old = typed_memory(c.d, c.dst, fill(gen, count(c.d), dlo, dhi));
    in.operands = random_operands(gen, parse_post_ops(c.chain), c.d);
    return in;
}

outcome_of_run run(const eltwise_case &c, const eltwise_inputs &in, cpu_isa cap) {
    primitive_attr attr;
    attr.set_max_cpu_isa(cap);
    attr.set_post_ops(parse_post_ops(c.chain));
    const memory::desc src_md(c.d, c.src, c.tag), dst_md(c.d, c.dst, c.tag);
    const eltwise_forward::primitive_desc pd(eltwise_forward::desc(prop_kind::forward_inference,
            c.alg, src_md, c.in_place ? src_md : dst_md, c.alpha, c.beta), attr);
    exec_args args;
    const memory src = copy_in_layout(in.src, pd.src_desc());
    const memory dst = c.in_place ? src : copy_in_layout(in.dst_old, pd.dst_desc());
    args[PRIM_ARG_SRC] = src;
    args[PRIM_ARG_DST] = dst;
    add_operands(pd, in.operands, args);
    eltwise_forward(pd).execute(args);
    return {pd.impl_name(), values_of(dst)};
}

// exact: the chain's arithmetic is exact in f32 (relu, linear by powers of two, sums of
// integers), so the JIT must equal the reference bit for bit; else the shared tolerance.
void check(const eltwise_case &c, bool exact, uint32_t seed = 1) {
    const cpu_isa isa = tested_isa();
    INFO(c.str() << " isa " << cpu_isa_name(isa));
    const eltwise_inputs in = make_inputs(c, seed);
    const outcome_of_run jit = run(c, in, isa);
    const outcome_of_run ref = run(c, in, cpu_isa::none);
    CHECK(ref.impl == "ref");
    CHECK(jit.impl == jit_name_without_vnni(isa));
    compare_with_reference(jit.dst, ref.dst, c.dst, exact, c.d[1], c.d[2] * c.d[3]);
}

} // namespace

TEST_CASE("jit int8 eltwise: every src and dst type pair", "[jit][int8][eltwise]") {
    for (dt src : all_types)
        for (dt dst : all_types)
            for (const char *tag : {"abcd", "acdb"}) {
                eltwise_case c;
                c.src = src;
                c.dst = dst;
                c.tag = tag;
                c.alg = algorithm::eltwise_linear;
                c.alpha = 0.5f; // halves: the store's round half to even decides
                c.beta = -3.f;
                check(c, true);
                c.alg = algorithm::eltwise_relu;
                c.alpha = -0.25f;
                c.beta = 0.f;
                check(c, true);
                c.alg = algorithm::eltwise_gelu_erf;
                check(c, false);
            }
}

TEST_CASE("jit int8 eltwise: in place, tails and lengths", "[jit][int8][eltwise]") {
    for (dt t : all_types)
        for (const dims &d : {dims{1, 1, 1, 1}, dims{1, 3, 1, 5}, dims{1, 1, 1, 17}, dims{3, 7, 11, 13},
                              dims{1, 64, 8, 9}}) {
            eltwise_case c;
            c.d = d;
            c.src = c.dst = t;
            c.alg = algorithm::eltwise_linear;
            c.alpha = 0.25f;
            c.beta = 1.f;
            c.in_place = true;
            check(c, true);
            c.in_place = false;
            c.chain = "sum:0.5";
            check(c, true);
        }
}

TEST_CASE("jit int8 eltwise: every post-op kind with typed operands", "[jit][int8][eltwise]") {
    // Planes of 15 elements (nchw, per channel: a row per plane, each with a tail), pixels of
    // 19 channels (nhwc) and 32-channel blocks (aBcd16b: one vector repeated on AVX-512).
    for (const auto &[chain, dst] : chain_combinations())
        for (const char *tag : {"abcd", "acdb", "aBcd16b"}) {
            eltwise_case c;
            c.src = dst == dt::f32 ? dt::s8 : dt::u8;
            c.dst = dst;
            c.tag = tag;
            if (std::string(tag) == "aBcd16b") c.d = {2, 32, 3, 5};
            c.alg = algorithm::eltwise_linear;
            c.alpha = 0.25f;
            c.beta = -2.f;
            c.chain = chain;
            const bool exact = chain.find("gelu") == std::string::npos && chain.find("tanh") == std::string::npos;
            check(c, exact);
        }
}

TEST_CASE("jit int8 eltwise: the store rounds half to even and saturates", "[jit][int8][eltwise]") {
    const cpu_isa isa = tested_isa();
    const float inf = std::numeric_limits<float>::infinity();
    const std::vector<float> values = {std::nanf(""), inf, -inf, 1e10f, -1e10f, 2.5f, 3.5f, -2.5f,
                                       -0.5f, 0.5f, 126.5f, 127.5f, -128.5f, 254.5f, 255.5f, 256.f,
                                       2147483520.f, 2147483648.f, -2147483904.f, 0.f, -0.f, 1.5f,
                                       -1.5f, 100.49f, -100.51f};
    for (dt dst : {dt::s32, dt::s8, dt::u8})
        for (bool with_sum : {false, true}) {
            INFO("dst " << data_type_name(dst) << " isa " << cpu_isa_name(isa) << " sum " << with_sum);
            const dims d = {1, static_cast<int64_t>(values.size())};
            memory src(memory::desc(d, dt::f32, tag::ab));
            std::copy(values.begin(), values.end(), static_cast<float *>(src.get_data_handle()));
            memory out(memory::desc(d, dst, tag::ab));
            std::memset(out.get_data_handle(), 0, out.get_desc().get_size());
            primitive_attr attr;
            attr.set_max_cpu_isa(isa);
            if (with_sum) attr.set_post_ops(parse_post_ops("sum")); // dst holds 0: adds nothing
            const eltwise_forward::primitive_desc pd(eltwise_forward::desc(prop_kind::forward_inference,
                    algorithm::eltwise_linear, src.get_desc(), out.get_desc(), 1.f, 0.f), attr);
            CHECK(pd.impl_name() == jit_name_without_vnni(isa));
            eltwise_forward(pd).execute({{PRIM_ARG_SRC, src}, {PRIM_ARG_DST, out}});
            for (size_t i = 0; i < values.size(); ++i) {
                INFO("value " << values[i]);
                CHECK(at(out, i) == quantized(values[i], dst));
            }
        }
}

namespace {

// n bytes that end where an inaccessible page begins: a read or write past them faults.
class bytes_before_guard_page {
public:
    explicit bytes_before_guard_page(size_t n) {
        const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
        size_ = (n + page - 1) / page * page + page;
        base_ = static_cast<char *>(mmap(nullptr, size_, PROT_READ | PROT_WRITE,
                                         MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
        REQUIRE(base_ != MAP_FAILED);
        REQUIRE(mprotect(base_ + size_ - page, page, PROT_NONE) == 0);
        data_ = base_ + size_ - page - n;
    }
    ~bytes_before_guard_page() { munmap(base_, size_); }
    void *data() const { return data_; }

private:
    char *base_ = nullptr, *data_ = nullptr;
    size_t size_ = 0;
};

} // namespace

TEST_CASE("jit int8 eltwise: a tail touches nothing past the tensor", "[jit][int8][eltwise]") {
    const cpu_isa isa = tested_isa();
    for (dt t : all_types)
        for (int64_t n : {1, 7, 13, 33}) {
            INFO(data_type_name(t) << " n " << n << " isa " << cpu_isa_name(isa));
            const memory::desc md({1, 2, n}, t, tag::abc);
            const bytes_before_guard_page src_bytes(md.get_size()), dst_bytes(md.get_size());
            std::vector<float> v;
            const memory filled = ints({1, 2, n}, t, 0, 100, v, 9);
            std::memcpy(src_bytes.data(), filled.get_data_handle(), md.get_size());
            std::memset(dst_bytes.data(), 0, md.get_size());
            const memory src(md, src_bytes.data()), dst(md, dst_bytes.data());
            // A per-channel operand makes rows of n elements, each with a tail; the sum reads
            // dst; a per-tensor s8 operand is read along each row.
            primitive_attr attr;
            attr.set_max_cpu_isa(isa);
            attr.set_post_ops(parse_post_ops("sum:0.5+add:u8:per_oc+mul:s8:per_tensor"));
            const eltwise_forward::primitive_desc pd(eltwise_forward::desc(prop_kind::forward_inference,
                    algorithm::eltwise_linear, md, md, 0.5f, 0.f), attr);
            CHECK(pd.impl_name() == jit_name_without_vnni(isa));
            // Each operand's last byte is the last before a guard page too.
            exec_args args{{PRIM_ARG_SRC, src}, {PRIM_ARG_DST, dst}};
            std::vector<std::vector<float>> op_values(3);
            std::vector<std::unique_ptr<bytes_before_guard_page>> op_bytes;
            for (int entry : {1, 2}) {
                const int id = PRIM_ARG_ATTR_MULTIPLE_POST_OP(entry) | PRIM_ARG_SRC_1;
                const memory::desc op_md = pd.query_md(id);
                const memory op = ints(op_md.get_dims(), op_md.get_data_type(),
                                       op_md.get_data_type() == dt::u8 ? 0 : -9, 9, op_values[static_cast<size_t>(entry)], 4 + entry);
                op_bytes.push_back(std::make_unique<bytes_before_guard_page>(op_md.get_size()));
                std::memcpy(op_bytes.back()->data(), op.get_data_handle(), op_md.get_size());
                args[id] = memory(op_md, op_bytes.back()->data());
            }
            eltwise_forward(pd).execute(args);
            // dst held 0, so the sum adds nothing: dst = (0.5·src + channel's value) · element's.
            for (size_t i = 0; i < static_cast<size_t>(2 * n); ++i)
                REQUIRE(at(dst, i) == quantized((0.5 * at(src, i) + op_values[1][i / static_cast<size_t>(n)])
                                                        * op_values[2][i], t));
        }
}

TEST_CASE("jit int8 eltwise: f32 primitives' int8 operands are read by the pass",
          "[jit][int8][eltwise]") {
    // Eltwise, binary, the normalizations and softmax run eltwise passes; a chain's binary
    // operands of type s32, s8 or u8 are converted where they are loaded.
    const cpu_isa isa = tested_isa();
    const dims d = {2, 19, 3, 7};
    const std::string chain = "add:s8:per_oc+mul:u8:per_tensor+sub:s32:common+relu";
    std::mt19937 gen(3);
    const memory src = typed_memory(d, dt::f32, fill(gen, count(d), -50, 50));
    const memory src1 = typed_memory(d, dt::f32, fill(gen, count(d), 1, 9));
    const std::map<int, std::vector<float>> operands = random_operands(gen, parse_post_ops(chain), d);
    const char *names[] = {"eltwise", "binary", "batch normalization", "layer normalization", "softmax"};
    for (int k = 0; k < 5; ++k)
        for (const char *layout : {"abcd", "acdb"}) {
            // The JIT layer normalization and softmax need their axis (the last) innermost.
            if (k >= 3 && std::string(layout) == "acdb") continue;
            INFO(names[k] << " " << layout << " isa " << cpu_isa_name(isa));
            const auto run = [&](cpu_isa cap) {
                primitive_attr attr;
                attr.set_max_cpu_isa(cap);
                attr.set_post_ops(parse_post_ops(chain));
                const memory::desc md(d, dt::f32, layout);
                const memory out(md);
                exec_args args {{PRIM_ARG_SRC, copy_in_layout(src, md)}, {PRIM_ARG_DST, out}};
                const auto execute = [&](const primitive_desc_base &pd, const primitive &p) {
                    add_operands(pd, operands, args);
                    p.execute(args);
                    return outcome_of_run {pd.impl_name(), values_of(out)};
                };
                const prop_kind inference = prop_kind::forward_inference;
                if (k == 0) {
                    const eltwise_forward::primitive_desc pd(
                            eltwise_forward::desc(inference, algorithm::eltwise_tanh, md, md, 0.f, 0.f), attr);
                    return execute(pd, eltwise_forward(pd));
                }
                if (k == 1) {
                    const binary::primitive_desc pd(binary::desc(algorithm::binary_mul, md, md, md), attr);
                    args[PRIM_ARG_SRC_1] = copy_in_layout(src1, md);
                    return execute(pd, binary(pd));
                }
                if (k == 2) {
                    const batch_normalization_forward::primitive_desc pd(
                            {inference, md, 1e-5f, normalization_flags::none}, attr);
                    return execute(pd, batch_normalization_forward(pd));
                }
                if (k == 3) {
                    const layer_normalization_forward::primitive_desc pd(
                            {inference, md, memory::desc(), 1e-5f, normalization_flags::none}, attr);
                    return execute(pd, layer_normalization_forward(pd));
                }
                const softmax_forward::primitive_desc pd(
                        softmax_forward::desc(inference, algorithm::softmax_accurate, md, md, 3), attr);
                return execute(pd, softmax_forward(pd));
            };
            const outcome_of_run jit = run(isa), ref = run(cpu_isa::none);
            CHECK(jit.impl == jit_name_without_vnni(isa));
            CHECK(ref.impl == "ref");
            compare_with_reference(jit.dst, ref.dst, dt::f32, false, d[1], d[2] * d[3]);
        }
}
