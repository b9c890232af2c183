// The eltwise driver: descriptor + algorithm -> primitive through the public API, reference
// through ref_eltwise_fwd on plain buffers.
#include <cstdio>
#include <cstring>

#include "attr/algorithm_table.hpp"
#include "attr/float_text.hpp"
#include "common/post_op_operands.hpp"
#include "compare.hpp"
#include "drivers.hpp"
#include "fill.hpp"
#include "io_spec.hpp"
#include "operands.hpp"
#include "problem_parse.hpp"
#include "ref/ref_kernels.hpp"
#include "tags.hpp"

namespace bdl {

namespace {

using prim::memory;

} // namespace

std::string eltwise_desc(const prim::impl::eltwise_problem &prb, const std::string &name);

namespace {

bool same_bits(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }

std::string number(float v) { return prim::impl::float_text(v); }

class eltwise_case : public problem_case {
public:
    eltwise_case(const prim::impl::eltwise_problem &prb, const std::string &name, float alpha,
                 float beta, const settings &s, const io_spec &io)
        : prb_(prb), name_(name), alg_(s.alg.alg), alpha_(alpha), beta_(beta), s_(s), quant_(io) {
        dst_dims_ = prb.dims;
        check_memory_budget(6.0 * 4 * volume_f(prb.dims), desc());
        src_ = buffer(prb.nelems());
        fill_eltwise_src(src_, alg_);
        quant_.fill_src(src_, tensor_id::src); // an integer type: its whole range
        if (s.inplace) {
            dst_old_ = src_; // in place: what a sum reads is the source
        } else {
            dst_old_ = buffer(prb.nelems());
            fill_dst_old(dst_old_);
            quant_.fill_dst_old(dst_old_);
        }
    }

    std::string desc() const override { return eltwise_desc(prb_, name_); }

    // --alg as written (main name, or its _dst variant); --alpha/--beta only when they differ
    // from the algorithm's defaults.
    std::string repro_options() const override {
        const prim::impl::algorithm_info *info = prim::impl::find_algorithm(alg_);
        std::string r = "--alg=" + s_.alg.name() + " ";
        if (!same_bits(alpha_, info->default_alpha)) r += "--alpha=" + number(alpha_) + " ";
        if (!same_bits(beta_, info->default_beta)) r += "--beta=" + number(beta_) + " ";
        return r;
    }

    bound_primitive create(const prim::primitive_attr &attr) const override {
        using prim::eltwise_forward;
        // The user's source has a layout: 'any' means plain. dst 'any' lets prim choose.
        // --strides=SRC:DST take precedence over the tags.
        const bool src_strided = !parse_strides(s_.strides, 0, 2).value_or(memory::dims()).empty();
        const bool dst_strided = !parse_strides(s_.strides, 1, 2).value_or(memory::dims()).empty();
        const memory::desc src_md = quant_.src_typed(s_.stag == "any" && !src_strided
                ? plain_desc(dst_dims_) : user_desc(dst_dims_, s_.stag, s_.strides, 0, 2, "--stag"));
        const memory::desc dst_md = s_.dtag == "any" && !dst_strided
                ? memory::desc() : quant_.dst_typed(user_desc(dst_dims_, s_.dtag, s_.strides, 1, 2, "--dtag"));
        const auto prop = s_.dir == direction::fwd_i ? prim::prop_kind::forward_inference
                                                     : prim::prop_kind::forward_training;
        const eltwise_forward::desc d(prop, alg_, src_md, dst_md, alpha_, beta_);
        const timed_creation<eltwise_forward> c = create_timed<eltwise_forward>(d, attr);
        const auto &pd = c.pd;
        bound_primitive b;
        b.prim = c.prim;
        b.create_ms = c.ms;
        b.impl = pd.impl_name();
        b.args[prim::PRIM_ARG_SRC] = from_plain(src_, dst_dims_, pd.src_desc());
        // In place (--inplace=true): dst is the source's memory.
        b.args[prim::PRIM_ARG_DST] = s_.inplace && pd.dst_desc() == pd.src_desc()
                                             ? b.args[prim::PRIM_ARG_SRC]
                                             : from_plain(dst_old_, dst_dims_, pd.dst_desc());
        bind_operands(pd, b.args);
        return b;
    }

    const std::vector<float> &ref_base() override {
        if (!ref_done_) {
            ref_ = buffer(prb_.nelems());
            prim::impl::ref_eltwise_fwd(alg_, alpha_, beta_, prim::post_ops(), src_.data(),
                                        ref_.data(), prb_.nelems());
            ref_done_ = true;
        }
        return ref_;
    }

    double base_tolerance() const override { return algorithm_tolerance(alg_); }

    prim::memory::data_type dst_type() const override { return quant_.dst_type(); }
    std::string data_types() const override { return quant_.data_types(); }
    void finish_reference(std::vector<float> &ref) const override { quant_.finish(ref); }

    // Bytes: src read and dst written, plus dst read when a sum needs dst_old, plus each binary
    // or prelu operand read once, each in its data type.
    double work(const prim::post_ops &po) const override {
        const auto size = [](prim::memory::data_type t) { return static_cast<double>(prim::data_type_size(t)); };
        const double src = size(quant_.spec().src[0]), dst = size(quant_.spec().dst);
        double bytes = static_cast<double>(prb_.nelems()) * (src + dst * (po.has_sum() ? 2 : 1));
        for (const prim::post_ops::entry &e : po.entries())
            if (prim::impl::has_operand(e))
                bytes += volume_f(prim::impl::operand_dims(e, dst_dims_))
                         * (e.kind == prim::post_ops::kind::binary && e.dt != prim::memory::data_type::undef
                                    ? size(e.dt) : 4.0);
        return bytes;
    }

private:
    prim::impl::eltwise_problem prb_;
    std::string name_;
    prim::algorithm alg_;
    float alpha_, beta_;
    settings s_;
    io_quant quant_;
    std::vector<float> src_, ref_;
    bool ref_done_ = false;
};

} // namespace

std::string eltwise_desc(const prim::impl::eltwise_problem &prb, const std::string &name) {
    return prim::impl::to_string(prb) + (name.empty() ? "" : "_n\"" + name + "\"");
}

std::string eltwise_case_desc(const std::string &text, const settings &s) {
    std::string name;
    prim::impl::eltwise_problem prb = parse_eltwise_problem_named(text, &name);
    if (s.mb > 0) prb.dims[0] = s.mb;
    return eltwise_desc(prb, name);
}

std::unique_ptr<problem_case> make_eltwise_case(const std::string &text, const settings &s) {
    std::string name;
    prim::impl::eltwise_problem prb = parse_eltwise_problem_named(text, &name);
    if (s.mb > 0) prb.dims[0] = s.mb;
    // Defaults of the main name; an alias (bounded_relu) never reaches here with other defaults.
    const prim::impl::algorithm_info *info = prim::impl::find_algorithm(s.alg.alg);
    const float alpha = s.alpha_given ? s.alpha : info->default_alpha;
    const float beta = s.beta_given ? s.beta : info->default_beta;
    io_spec io;
    parse_io_spec(driver_kind::eltwise, s, io); // the case list skipped what it refuses
    return std::make_unique<eltwise_case>(prb, name, alpha, beta, s, io);
}

} // namespace bdl
