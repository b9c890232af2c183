// The softmax driver: dims + --alg + --axis -> prim::softmax_forward (inference) through the
// public API; the reference is plain loops in double here, without post-ops.
#include <cmath>
#include <limits>

#include "common/post_op_operands.hpp"
#include "common/verbose.hpp"
#include "drivers.hpp"
#include "fill.hpp"
#include "io_spec.hpp"
#include "operands.hpp"
#include "problem_parse.hpp"
#include "tags.hpp"

namespace bdl {

namespace {

using prim::memory;

// exp's approximation (about 8 ulp) plus the product by 1 / sum, or log(sum) rounded once.
constexpr double softmax_tolerance = 2e-6;

struct softmax_desc {
    memory::dims dims;
    std::string name;
};

softmax_desc parse_with_mb(const std::string &text, const settings &s) {
    softmax_desc d;
    d.dims = parse_eltwise_problem_named(text, &d.name).dims;
    if (s.mb > 0) d.dims[0] = s.mb;
    if (s.axis >= static_cast<int>(d.dims.size()))
        throw prim::error(prim::status::invalid_arguments,
                          "--axis=" + std::to_string(s.axis) + " is out of range for "
                                  + prim::impl::dims_str(d.dims));
    return d;
}

std::string desc_string(const softmax_desc &d) {
    return prim::impl::dims_str(d.dims) + (d.name.empty() ? "" : "_n\"" + d.name + "\"");
}

class softmax_case : public problem_case {
public:
    softmax_case(const softmax_desc &d, const settings &s, const io_spec &io) : d_(d), s_(s), quant_(io) {
        dst_dims_ = d.dims;
        check_memory_budget(4.0 * 5 * volume_f(d.dims), desc());
        // Multiples of 1/4 in [-2.5, 4]: x - max is exact, and rows hold distinct values.
        src_ = buffer(volume(d.dims));
        fill_src(src_, tensor_id::src);
        for (size_t i = 0; i < src_.size(); ++i)
            src_[i] = src_[i] * 0.5f + static_cast<float>(i % 7) * 0.25f - 0.5f;
        quant_.fill_src(src_, tensor_id::src); // an integer type: its whole range
        dst_old_ = buffer(volume(d.dims));
        fill_dst_old(dst_old_);
        quant_.fill_dst_old(dst_old_);
    }

    std::string desc() const override { return desc_string(d_); }

    bound_primitive create(const prim::primitive_attr &attr) const override {
        const memory::desc src_md = quant_.src_typed(
                s_.stag == "any" ? plain_desc(d_.dims) : make_desc(d_.dims, s_.stag, "--stag"));
        const memory::desc dst_md = quant_.dst_typed(make_desc(d_.dims, s_.dtag, "--dtag"));
        const prim::softmax_forward::desc d(prim::prop_kind::forward_inference, s_.salg, src_md,
                                            dst_md, s_.axis);
        const prim::softmax_forward::primitive_desc pd(d, quant_.with_scales(attr));
        bound_primitive b;
        b.prim = std::make_shared<prim::softmax_forward>(pd);
        b.impl = pd.impl_name();
        b.args[prim::PRIM_ARG_SRC] = from_plain(src_, d_.dims, pd.src_desc());
        b.args[prim::PRIM_ARG_DST] = from_plain(dst_old_, d_.dims, pd.dst_desc());
        bind_operands(pd, b.args);
        quant_.bind_scales(b.args);
        return b;
    }

    prim::memory::data_type dst_type() const override { return quant_.dst_type(); }
    std::string data_types() const override { return quant_.data_types(); }
    void finish_reference(std::vector<float> &ref) const override { quant_.finish(ref); }

    std::vector<float> input(int arg) const override {
        return arg == prim::PRIM_ARG_SRC ? src_ : std::vector<float>();
    }

    const std::vector<float> &ref_base() override {
        if (ref_done_) return ref_;
        const int axis = s_.axis;
        int64_t outer = 1, inner = 1;
        for (int i = 0; i < axis; ++i) outer *= d_.dims[i];
        for (size_t i = static_cast<size_t>(axis) + 1; i < d_.dims.size(); ++i) inner *= d_.dims[i];
        const int64_t len = d_.dims[static_cast<size_t>(axis)];
        const bool log = s_.salg == prim::algorithm::softmax_log;
        // int8 (doc/int8.md): src's scale (or 2.x's output scale) on the result, before the chain.
        const io_spec &q = quant_.spec();
        const float scale = q.src_scale.given ? q.src_scale.value : q.oscale.given ? q.oscale.value : 1.f;
        ref_ = buffer(volume(d_.dims));
#pragma omp parallel for collapse(2) schedule(static)
        for (int64_t o = 0; o < outer; ++o)
            for (int64_t i = 0; i < inner; ++i) {
                const float *x = src_.data() + o * len * inner + i;
                float *y = ref_.data() + o * len * inner + i;
                double m = -std::numeric_limits<double>::infinity(), sum = 0;
                for (int64_t a = 0; a < len; ++a) m = std::max(m, static_cast<double>(x[a * inner]));
                for (int64_t a = 0; a < len; ++a) sum += std::exp(x[a * inner] - m);
                for (int64_t a = 0; a < len; ++a)
                    y[a * inner] = scale * static_cast<float>(log ? x[a * inner] - m - std::log(sum)
                                                                  : std::exp(x[a * inner] - m) / sum);
            }
        ref_done_ = true;
        return ref_;
    }

    double base_tolerance() const override { return softmax_tolerance; }

    // Bytes: src read, dst written, dst read for a sum, each operand read once.
    double work(const prim::post_ops &po) const override {
        double elems = volume_f(d_.dims) * (po.has_sum() ? 3 : 2);
        for (const prim::post_ops::entry &e : po.entries())
            if (prim::impl::has_operand(e)) elems += volume_f(prim::impl::operand_dims(e, dst_dims_));
        return 4.0 * elems;
    }

private:
    softmax_desc d_;
    settings s_;
    io_quant quant_;
    std::vector<float> src_, ref_;
    bool ref_done_ = false;
};

} // namespace

std::string softmax_case_desc(const std::string &text, const settings &s) {
    return desc_string(parse_with_mb(text, s));
}

std::unique_ptr<problem_case> make_softmax_case(const std::string &text, const settings &s) {
    io_spec io;
    parse_io_spec(driver_kind::softmax, s, io); // the case list skipped what it refuses
    return std::make_unique<softmax_case>(parse_with_mb(text, s), s, io);
}

} // namespace bdl
