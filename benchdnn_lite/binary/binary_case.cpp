// The binary driver: SRC0:SRC1 descriptor + algorithm -> prim::binary through the public API,
// reference through binary_fwd per element with src1 broadcast (attr/binary_table.hpp).
#include "attr/binary_table.hpp"
#include "attr_syntax.hpp"
#include "common/post_op_operands.hpp"
#include "drivers.hpp"
#include "fill.hpp"
#include "io_spec.hpp"
#include "operands.hpp"
#include "problem_parse.hpp"
#include "tags.hpp"

namespace bdl {

namespace {

using prim::memory;

std::string binary_desc(const prim::impl::binary_problem &prb, const std::string &name) {
    return prim::impl::to_string(prb) + (name.empty() ? "" : "_n\"" + name + "\"");
}

prim::impl::binary_problem parse_with_mb(const std::string &text, const settings &s,
                                         std::string *name) {
    prim::impl::binary_problem prb = parse_binary_problem_named(text, name);
    if (s.mb > 0) {
        if (prb.src1[0] == prb.src0[0]) prb.src1[0] = s.mb; // a broadcast mb stays 1
        prb.src0[0] = s.mb;
    }
    return prb;
}

// --stag=TAG0:TAG1 (one tag: both sources).
std::string stag_of(const std::string &stag, int which) {
    const std::vector<std::string> parts = split(stag, ':');
    return parts.size() > 1 ? parts[which] : parts[0];
}

class binary_case : public problem_case {
public:
    binary_case(const prim::impl::binary_problem &prb, const std::string &name, const settings &s,
                const io_spec &io)
        : prb_(prb), name_(name), s_(s), quant_(io) {
        dst_dims_ = prb.src0;
        check_memory_budget(4.0 * (5 * volume_f(prb.src0) + volume_f(prb.src1)), desc());
        // Small halves: every result of add, sub, mul, max, min is exact; div by a non-zero
        // power of two is exact too.
        src0_ = buffer(volume(prb.src0));
        fill_src(src0_, tensor_id::src);
        for (float &v : src0_) v *= 0.5f;
        src1_ = buffer(volume(prb.src1));
        fill_src(src1_, tensor_id::wei);
        if (s.balg == prim::algorithm::binary_div) {
            static const float pow2[] = {-4.f, -2.f, -1.f, -0.5f, 0.5f, 1.f, 2.f, 4.f, 0.5f};
            for (float &v : src1_) v = pow2[static_cast<int>(v) + 4];
        } else {
            for (float &v : src1_) v *= 0.5f;
        }
        dst_old_ = buffer(volume(prb.src0));
        fill_dst_old(dst_old_);
        if (io.int8()) { // benchdnn's int8 filling; a divisor is never 0
            quant_.fill_src(src0_, tensor_id::src, 0);
            quant_.fill_src(src1_, tensor_id::wei, 1);
            if (s.balg == prim::algorithm::binary_div)
                for (float &v : src1_) v = v == 0.f ? 1.f : v;
            quant_.fill_dst_old(dst_old_);
        }
    }

    std::string desc() const override { return binary_desc(prb_, name_); }

    std::string repro_options() const override {
        return std::string("--alg=") + prim::impl::find_binary(s_.balg)->name + " ";
    }

    bound_primitive create(const prim::primitive_attr &attr) const override {
        const std::string t0 = stag_of(s_.stag, 0), t1 = stag_of(s_.stag, 1);
        // The user's sources have a layout: 'any' means plain. dst 'any' lets prim choose.
        const memory::desc src0_md = quant_.src_typed(
                t0 == "any" ? plain_desc(prb_.src0) : make_desc(prb_.src0, t0, "--stag"), 0);
        const memory::desc src1_md = quant_.src_typed(
                t1 == "any" ? plain_desc(prb_.src1) : make_desc(prb_.src1, t1, "--stag"), 1);
        const memory::desc dst_md = quant_.dst_typed(make_desc(prb_.src0, s_.dtag, "--dtag"));
        const prim::binary::desc d(s_.balg, src0_md, src1_md, dst_md);
        const timed_creation<prim::binary> c = create_timed<prim::binary>(d, quant_.with_scales(attr));
        const auto &pd = c.pd;
        bound_primitive b;
        b.prim = c.prim;
        b.create_ms = c.ms;
        b.impl = pd.impl_name();
        b.args[prim::PRIM_ARG_SRC_0] = from_plain(src0_, prb_.src0, pd.src0_desc());
        b.args[prim::PRIM_ARG_SRC_1] = from_plain(src1_, prb_.src1, pd.src1_desc());
        b.args[prim::PRIM_ARG_DST] = from_plain(dst_old_, dst_dims_, pd.dst_desc());
        bind_operands(pd, b.args);
        quant_.bind_scales(b.args);
        return b;
    }

    prim::memory::data_type dst_type() const override { return quant_.dst_type(); }
    std::string data_types() const override { return quant_.data_types(); }
    void finish_reference(std::vector<float> &ref) const override { quant_.finish(ref); }

    std::vector<float> input(int arg) const override {
        return arg == prim::PRIM_ARG_SRC_0 ? src0_ : arg == prim::PRIM_ARG_SRC_1 ? src1_ : std::vector<float>();
    }

    const std::vector<float> &ref_base() override {
        if (!ref_done_) {
            const int nd = static_cast<int>(prb_.src0.size());
            const int64_t n = volume(prb_.src0);
            std::vector<int64_t> stride1(nd, 0);
            int64_t st = 1;
            for (int j = nd - 1; j >= 0; --j) {
                stride1[j] = prb_.src1[j] == 1 ? 0 : st;
                st *= prb_.src1[j];
            }
            ref_ = buffer(n);
            const io_spec &q = quant_.spec();
            const float s0 = q.src_scale.given ? q.src_scale.value : 1.f;
            const float s1 = q.src1_scale.given ? q.src1_scale.value : 1.f;
#pragma omp parallel for schedule(static)
            for (int64_t i = 0; i < n; ++i) {
                int64_t rem = i, off1 = 0;
                for (int j = nd - 1; j >= 0; --j) {
                    off1 += (rem % prb_.src0[j]) * stride1[j];
                    rem /= prb_.src0[j];
                }
                ref_[i] = prim::impl::binary_fwd(s_.balg, s0 * src0_[i], s1 * src1_[off1]);
            }
            ref_done_ = true;
        }
        return ref_;
    }

    // Bytes: src0 and src1 read, dst written, dst read for a sum, each operand read once.
    double work(const prim::post_ops &po) const override {
        double elems = volume_f(prb_.src0) * (po.has_sum() ? 3 : 2) + volume_f(prb_.src1);
        for (const prim::post_ops::entry &e : po.entries())
            if (prim::impl::has_operand(e)) elems += volume_f(prim::impl::operand_dims(e, dst_dims_));
        return 4.0 * elems;
    }

private:
    prim::impl::binary_problem prb_;
    std::string name_;
    settings s_;
    io_quant quant_;
    std::vector<float> src0_, src1_, ref_;
    bool ref_done_ = false;
};

} // namespace

std::string binary_case_desc(const std::string &text, const settings &s) {
    std::string name;
    return binary_desc(parse_with_mb(text, s, &name), name);
}

std::unique_ptr<problem_case> make_binary_case(const std::string &text, const settings &s) {
    std::string name;
    const prim::impl::binary_problem prb = parse_with_mb(text, s, &name);
    io_spec io;
    parse_io_spec(driver_kind::binary, s, io); // the case list skipped what it refuses
    return std::make_unique<binary_case>(prb, name, s, io);
}

} // namespace bdl
