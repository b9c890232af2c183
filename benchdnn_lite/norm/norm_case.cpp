// The bnorm and lnorm drivers: descriptor + --flags -> batch_normalization_forward or
// layer_normalization_forward (inference) through the public API, reference through
// ref_bnorm_fwd / ref_lnorm_fwd on plain buffers without post-ops.
#include "common/post_op_operands.hpp"
#include "drivers.hpp"
#include "fill.hpp"
#include "operands.hpp"
#include "problem_parse.hpp"
#include "ref/ref_normalization.hpp"
#include "tags.hpp"

namespace bdl {

namespace {

using prim::memory;

// The JIT kernels fold (x - mean) / sqrt(var + eps) * scale + shift into x * a + b: a few
// roundings off the double reference (doc/normalization.md).
constexpr double norm_tolerance = 4e-6;

// Source values: halves in [-2, 2] plus a per-channel offset, so that statistics differ.
void fill_norm_src(std::vector<float> &v, int64_t channel_stride, int64_t channels) {
    fill_src(v, tensor_id::src);
    for (int64_t i = 0; i < static_cast<int64_t>(v.size()); ++i)
        v[i] = v[i] * 0.5f + static_cast<float>((i / channel_stride) % channels % 7) - 3.f;
}

// The per-channel (or per-row) arguments the flags ask for; empty when not asked for.
struct norm_args {
    std::vector<float> mean, variance, scale, shift;

    void fill(unsigned flags, int64_t stats, int64_t channels) {
        if (flags & prim::impl::norm_flags::global_stats) {
            mean = buffer(stats);
            fill_src(mean, tensor_id::bias); // integers in [-4, 4]
            variance = buffer(stats);
            fill_src(variance, tensor_id::operand);
            for (float &v : variance) v = 0.25f + (v + 4.f) * 0.5f; // in [0.25, 4.25]
        }
        if (flags & prim::impl::norm_flags::scale) {
            scale = buffer(channels);
            fill_src(scale, tensor_id::wei);
            for (float &v : scale) v *= 0.5f;
        }
        if (flags & prim::impl::norm_flags::shift) {
            shift = buffer(channels);
            fill_src(shift, tensor_id::dst_old);
            for (float &v : shift) v *= 0.25f;
        }
    }
    static const float *ptr(const std::vector<float> &v) { return v.empty() ? nullptr : v.data(); }

    // Binds the arguments pd asks for (stat_dims: mean/variance, c: scale/shift).
    template <typename pd_t>
    void bind(const pd_t &pd, const memory::dims &stat_dims, int64_t c, prim::exec_args &args) const {
        if (!mean.empty()) {
            args[prim::PRIM_ARG_MEAN] = from_plain(mean, stat_dims, pd.mean_desc());
            args[prim::PRIM_ARG_VARIANCE] = from_plain(variance, stat_dims, pd.variance_desc());
        }
        if (!scale.empty()) args[prim::PRIM_ARG_SCALE] = from_plain(scale, {c}, pd.scale_desc());
        if (!shift.empty()) args[prim::PRIM_ARG_SHIFT] = from_plain(shift, {c}, pd.shift_desc());
    }
    double elems() const {
        return static_cast<double>(mean.size() + variance.size() + scale.size() + shift.size());
    }
};

// benchdnn's --tag=SRC[:DST] arrives as --stag (parser.cpp): the source's layout, and the
// destination's when given (else --dtag's).
std::string src_tag_of(const settings &s) { return s.stag.substr(0, s.stag.find(':')); }
std::string dst_tag_of(const settings &s) {
    const size_t colon = s.stag.find(':');
    return colon == std::string::npos ? s.dtag : s.stag.substr(colon + 1);
}

memory::desc src_desc_of(const memory::dims &dims, const settings &s) {
    const std::string t = src_tag_of(s);
    return t == "any" ? plain_desc(dims) : make_desc(dims, t, "--stag");
}

double bytes(double n, const norm_args &a, const prim::post_ops &po, const memory::dims &dims) {
    double elems = n * (po.has_sum() ? 3 : 2) + a.elems();
    for (const prim::post_ops::entry &e : po.entries())
        if (prim::impl::has_operand(e)) elems += volume_f(prim::impl::operand_dims(e, dims));
    return 4.0 * elems;
}

class norm_case_base : public problem_case {
public:
    double base_tolerance() const override { return norm_tolerance; }
    std::vector<float> input(int arg) const override {
        switch (arg) {
        case prim::PRIM_ARG_SRC: return src_;
        case prim::PRIM_ARG_MEAN: return a_.mean;
        case prim::PRIM_ARG_VARIANCE: return a_.variance;
        case prim::PRIM_ARG_SCALE: return a_.scale;
        case prim::PRIM_ARG_SHIFT: return a_.shift;
        default: return {};
        }
    }
    const std::vector<float> &ref_base() override {
        if (!ref_done_) {
            ref_ = buffer(volume(dst_dims_));
            compute_ref(ref_);
            ref_done_ = true;
        }
        return ref_;
    }

protected:
    virtual void compute_ref(std::vector<float> &out) const = 0;
    std::vector<float> src_, ref_;
    norm_args a_;
    bool ref_done_ = false;
};

// ---- batch normalization ----------------------------------------------------------------------

memory::dims bnorm_dims(const prim::impl::bnorm_problem &p) {
    memory::dims d = {p.mb, p.ic};
    for (int sp = 3 - p.nsp; sp < 3; ++sp) d.push_back(p.i[sp]);
    return d;
}

prim::impl::bnorm_problem bnorm_with(const std::string &text, const settings &s) {
    prim::impl::bnorm_problem p = parse_bnorm_problem(text);
    if (s.mb > 0) p.mb = s.mb;
    p.flags = norm_flags_of(s.flags);
    return p;
}

class bnorm_case : public norm_case_base {
public:
    bnorm_case(const prim::impl::bnorm_problem &p, const settings &s) : p_(p), s_(s) {
        dst_dims_ = bnorm_dims(p);
        check_memory_budget(6.0 * 4 * volume_f(dst_dims_), desc());
        src_ = buffer(p.nelems());
        fill_norm_src(src_, p.spatial(), p.ic);
        a_.fill(p.flags, p.ic, p.ic);
        dst_old_ = buffer(p.nelems());
        fill_dst_old(dst_old_);
    }
    std::string desc() const override { return prim::impl::descriptor_string(p_); }

    bound_primitive create(const prim::primitive_attr &attr) const override {
        using prim::batch_normalization_forward;
        const memory::desc src_md = src_desc_of(dst_dims_, s_);
        const memory::desc dst_md = make_desc(dst_dims_, dst_tag_of(s_), "--dtag");
        const batch_normalization_forward::desc d(prim::prop_kind::forward_inference, src_md,
                                                  dst_md, p_.eps,
                                                  static_cast<prim::normalization_flags>(p_.flags));
        const timed_creation<batch_normalization_forward> c = create_timed<batch_normalization_forward>(d, attr);
        const auto &pd = c.pd;
        bound_primitive b;
        b.prim = c.prim;
        b.create_ms = c.ms;
        b.impl = pd.impl_name();
        b.args[prim::PRIM_ARG_SRC] = from_plain(src_, dst_dims_, pd.src_desc());
        b.args[prim::PRIM_ARG_DST] = from_plain(dst_old_, dst_dims_, pd.dst_desc());
        a_.bind(pd, {p_.ic}, p_.ic, b.args);
        bind_operands(pd, b.args);
        return b;
    }

    double work(const prim::post_ops &po) const override {
        return bytes(volume_f(dst_dims_), a_, po, dst_dims_);
    }

private:
    void compute_ref(std::vector<float> &out) const override {
        prim::impl::ref_bnorm_fwd(p_, src_.data(), norm_args::ptr(a_.mean), norm_args::ptr(a_.variance),
                                  norm_args::ptr(a_.scale), norm_args::ptr(a_.shift),
                                  prim::post_ops(), out.data());
    }
    prim::impl::bnorm_problem p_;
    settings s_;
};

// ---- layer normalization ----------------------------------------------------------------------

prim::impl::lnorm_problem lnorm_with(const std::string &text, const settings &s, std::string *name) {
    prim::impl::lnorm_problem p = parse_lnorm_problem_named(text, name);
    if (s.mb > 0) p.dims[0] = s.mb;
    p.flags = norm_flags_of(s.flags);
    return p;
}

std::string lnorm_desc(const prim::impl::lnorm_problem &p, const std::string &name) {
    return prim::impl::descriptor_string(p) + (name.empty() ? "" : "_n\"" + name + "\"");
}

class lnorm_case : public norm_case_base {
public:
    lnorm_case(const prim::impl::lnorm_problem &p, const std::string &name, const settings &s)
        : p_(p), name_(name), s_(s) {
        dst_dims_ = p.dims;
        check_memory_budget(6.0 * 4 * volume_f(dst_dims_), desc());
        src_ = buffer(p.nelems());
        fill_norm_src(src_, 1, p.norm_len());
        a_.fill(p.flags, p.rows(), p.norm_len());
        dst_old_ = buffer(p.nelems());
        fill_dst_old(dst_old_);
    }
    std::string desc() const override { return lnorm_desc(p_, name_); }

    bound_primitive create(const prim::primitive_attr &attr) const override {
        using prim::layer_normalization_forward;
        const memory::desc src_md = src_desc_of(dst_dims_, s_);
        const memory::desc dst_md = make_desc(dst_dims_, dst_tag_of(s_), "--dtag");
        const memory::dims stat_dims(dst_dims_.begin(), dst_dims_.end() - 1);
        const layer_normalization_forward::desc d(prim::prop_kind::forward_inference, src_md,
                                                  dst_md, memory::desc(), p_.eps,
                                                  static_cast<prim::normalization_flags>(p_.flags));
        const timed_creation<layer_normalization_forward> c = create_timed<layer_normalization_forward>(d, attr);
        const auto &pd = c.pd;
        bound_primitive b;
        b.prim = c.prim;
        b.create_ms = c.ms;
        b.impl = pd.impl_name();
        b.args[prim::PRIM_ARG_SRC] = from_plain(src_, dst_dims_, pd.src_desc());
        b.args[prim::PRIM_ARG_DST] = from_plain(dst_old_, dst_dims_, pd.dst_desc());
        a_.bind(pd, stat_dims, p_.norm_len(), b.args);
        bind_operands(pd, b.args);
        return b;
    }

    double work(const prim::post_ops &po) const override {
        return bytes(volume_f(dst_dims_), a_, po, dst_dims_);
    }

private:
    void compute_ref(std::vector<float> &out) const override {
        prim::impl::ref_lnorm_fwd(p_, src_.data(), norm_args::ptr(a_.mean), norm_args::ptr(a_.variance),
                                  norm_args::ptr(a_.scale), norm_args::ptr(a_.shift),
                                  prim::post_ops(), out.data());
    }
    prim::impl::lnorm_problem p_;
    std::string name_;
    settings s_;
};

} // namespace

std::string bnorm_case_desc(const std::string &text, const settings &s) {
    return prim::impl::descriptor_string(bnorm_with(text, s));
}

std::unique_ptr<problem_case> make_bnorm_case(const std::string &text, const settings &s) {
    return std::make_unique<bnorm_case>(bnorm_with(text, s), s);
}

std::string lnorm_case_desc(const std::string &text, const settings &s) {
    std::string name;
    const prim::impl::lnorm_problem p = lnorm_with(text, s, &name);
    return lnorm_desc(p, name);
}

std::unique_ptr<problem_case> make_lnorm_case(const std::string &text, const settings &s) {
    std::string name;
    const prim::impl::lnorm_problem p = lnorm_with(text, s, &name);
    return std::make_unique<lnorm_case>(p, name, s);
}

} // namespace bdl
