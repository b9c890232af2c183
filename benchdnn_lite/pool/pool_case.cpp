// The pooling driver: benchdnn's pool descriptor (mb2ic64_ih56oh28kh3sh2ph1) + --alg ->
// prim::pooling_forward through the public API, reference ref_pool_fwd on plain buffers.
#include <algorithm>

#include "common/post_op_operands.hpp"
#include "drivers.hpp"
#include "fill.hpp"
#include "io_spec.hpp"
#include "operands.hpp"
#include "pool/pool_parse.hpp"
#include "ref/ref_pooling.hpp"
#include "tags.hpp"

namespace bdl {

namespace {

using prim::memory;
using prim::impl::pool_problem;

memory::dims src_dims(const pool_problem &p) {
    memory::dims d = {p.mb, p.ic};
    for (int sp = 3 - p.nsp; sp < 3; ++sp) d.push_back(p.i[sp]);
    return d;
}

memory::dims out_dims(const pool_problem &p) {
    memory::dims d = {p.mb, p.ic};
    for (int sp = 3 - p.nsp; sp < 3; ++sp) d.push_back(p.o[sp]);
    return d;
}

class pool_case : public problem_case {
public:
    pool_case(const pool_problem &prb, const settings &s, const io_spec &io) : prb_(prb), s_(s), quant_(io) {
        dst_dims_ = out_dims(prb);
        check_memory_budget(4.0 * (volume_f(src_dims(prb)) + 4 * volume_f(dst_dims_)), desc());
        src_ = buffer(volume(src_dims(prb)));
        fill_src(src_, tensor_id::src);
        quant_.fill_src(src_, tensor_id::src); // an integer type: its whole range
        dst_old_ = buffer(volume(dst_dims_));
        fill_dst_old(dst_old_);
        quant_.fill_dst_old(dst_old_);
    }

    std::string desc() const override { return prim::impl::descriptor_string(prb_); }

    std::string repro_options() const override {
        return std::string("--alg=") + prim::impl::pool_alg_name(prb_.alg) + " ";
    }

    bound_primitive create(const prim::primitive_attr &attr) const override {
        // --tag (or --stag) is src's layout, --dtag dst's; 'any' lets prim choose.
        const memory::desc src_md = quant_.src_typed(make_desc(src_dims(prb_), s_.stag, "--tag"));
        const memory::desc dst_md = quant_.dst_typed(make_desc(dst_dims_, s_.dtag, "--dtag"));
        memory::dims strides, kernel, dilation, pl, pr;
        for (int sp = 3 - prb_.nsp; sp < 3; ++sp) {
            strides.push_back(prb_.s[sp]);
            kernel.push_back(prb_.k[sp]);
            dilation.push_back(prb_.d[sp]);
            pl.push_back(prb_.p[sp]);
            // A negative end padding (the last rows unused) is no padding: the same output.
            pr.push_back(std::max<int64_t>(0, prb_.p_end[sp]));
        }
        const prim::pooling_forward::primitive_desc pd(
                {prim::prop_kind::forward_inference, prb_.alg, src_md, dst_md, strides, kernel,
                 dilation, pl, pr}, attr);
        bound_primitive b;
        b.prim = std::make_shared<prim::pooling_forward>(pd);
        b.impl = pd.impl_name();
        b.args[prim::PRIM_ARG_SRC] = from_plain(src_, src_dims(prb_), pd.src_desc());
        b.args[prim::PRIM_ARG_DST] = from_plain(dst_old_, dst_dims_, pd.dst_desc());
        bind_operands(pd, b.args);
        return b;
    }

    std::vector<float> input(int arg) const override {
        return arg == prim::PRIM_ARG_SRC ? src_ : std::vector<float>();
    }

    const std::vector<float> &ref_base() override {
        if (!ref_done_) {
            ref_ = buffer(volume(dst_dims_));
            prim::impl::ref_pool_fwd(prb_, src_.data(), prim::post_ops(), ref_.data());
            ref_done_ = true;
        }
        return ref_;
    }

    // Maxima of integers and their sums are exact; an average rounds once at the division,
    // where the JIT divides in f32 and the reference in double.
    double base_tolerance() const override { return prb_.is_max() ? 0.0 : 1e-6; }

    prim::memory::data_type dst_type() const override { return quant_.dst_type(); }
    std::string data_types() const override { return quant_.data_types(); }
    void finish_reference(std::vector<float> &ref) const override { quant_.finish(ref); }

    // Bytes: src read, dst written, dst read for a sum, each operand read once.
    double work(const prim::post_ops &po) const override {
        double elems = volume_f(src_dims(prb_)) + volume_f(dst_dims_) * (po.has_sum() ? 2 : 1);
        for (const prim::post_ops::entry &e : po.entries())
            if (prim::impl::has_operand(e))
                elems += volume_f(prim::impl::operand_dims(e, dst_dims_));
        return 4.0 * elems;
    }

private:
    pool_problem prb_;
    settings s_;
    io_quant quant_;
    std::vector<float> src_, ref_;
    bool ref_done_ = false;
};

} // namespace

std::string pool_case_desc(const std::string &text, const settings &s) {
    return prim::impl::descriptor_string(parse_pool_problem(text, s));
}

std::unique_ptr<problem_case> make_pool_case(const std::string &text, const settings &s) {
    io_spec io;
    parse_io_spec(driver_kind::pool, s, io); // the case list skipped what it refuses
    return std::make_unique<pool_case>(parse_pool_problem(text, s), s, io);
}

} // namespace bdl
