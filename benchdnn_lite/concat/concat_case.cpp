// The concat driver: inputs SRC0:SRC1:... (dims joined by x) + --axis -> prim::concat through
// the public API, each input in its --stag layout (TAG0:TAG1:..., one tag for all); the
// reference is the plain concatenation, exact.
#include "attr_syntax.hpp"
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

struct concat_desc {
    std::vector<memory::dims> srcs;
    memory::dims dst;
    std::string name;
};

// The inputs joined by ':', the last one may carry the name (_n"NAME", which may hold ':').
concat_desc parse_with_mb(const std::string &text, const settings &s) {
    concat_desc d;
    const size_t name_at = text.find("n\"");
    const std::string dims_part = text.substr(0, name_at), name_part =
            name_at == std::string::npos ? "" : text.substr(name_at);
    const std::vector<std::string> parts = split(dims_part, ':');
    for (size_t i = 0; i < parts.size(); ++i) {
        const bool last = i + 1 == parts.size();
        try {
            d.srcs.push_back(parse_eltwise_problem_named(parts[i] + (last ? name_part : ""),
                                                         last ? &d.name : nullptr).dims);
        } catch (const prim::error &e) {
            throw prim::error(prim::status::invalid_arguments,
                              "src " + std::to_string(i) + ": " + e.what());
        }
        if (s.mb > 0) d.srcs.back()[0] = s.mb;
    }
    // The library checks ranks and dims (naming the input); the axis' range is checked here so
    // that the dst dims below exist.
    const int rank = static_cast<int>(d.srcs[0].size());
    if (s.axis >= rank)
        throw prim::error(prim::status::invalid_arguments,
                          "--axis=" + std::to_string(s.axis) + " is out of range for rank "
                                  + std::to_string(rank));
    d.dst = d.srcs[0];
    d.dst[static_cast<size_t>(s.axis)] = 0;
    for (const memory::dims &x : d.srcs)
        if (static_cast<int>(x.size()) > s.axis) d.dst[static_cast<size_t>(s.axis)] += x[static_cast<size_t>(s.axis)];
    return d;
}

std::string desc_string(const concat_desc &d) {
    std::string s;
    for (size_t i = 0; i < d.srcs.size(); ++i) s += (i ? ":" : "") + prim::impl::dims_str(d.srcs[i]);
    return s + (d.name.empty() ? "" : "_n\"" + d.name + "\"");
}

// --stag=TAG0:TAG1:... (one tag: every input); 'any' is plain (inputs must have a layout).
std::string stag_of(const std::string &stag, size_t which) {
    const std::vector<std::string> parts = split(stag, ':');
    return parts.size() > 1 ? (which < parts.size() ? parts[which] : std::string("?")) : parts[0];
}

class concat_case : public problem_case {
public:
    concat_case(const concat_desc &d, const settings &s, const io_spec &io) : d_(d), s_(s), quant_(io) {
        dst_dims_ = d.dst;
        check_memory_budget(4.0 * 4 * volume_f(d.dst), desc());
        for (size_t i = 0; i < d.srcs.size(); ++i) {
            srcs_.push_back(buffer(volume(d.srcs[i])));
            // Each input's own values: a misplaced element is seen.
            for (size_t e = 0; e < srcs_.back().size(); ++e)
                srcs_.back()[e] = static_cast<float>(i * 1000 + e % 997);
            if (io.dst != dt::f32) { // the same, wrapped into the type's range
                const auto [lo, hi] = int_range(io.dst);
                for (float &v : srcs_.back()) v = static_cast<float>(lo + static_cast<int>(v) % (hi - lo + 1));
            }
        }
        dst_old_ = buffer(volume(d.dst));
        fill_dst_old(dst_old_);
    }

    std::string desc() const override { return desc_string(d_); }

    bound_primitive create(const prim::primitive_attr &attr) const override {
        const size_t tags = split(s_.stag, ':').size();
        if (tags > 1 && tags != d_.srcs.size())
            throw prim::error(prim::status::invalid_arguments,
                              "--stag has " + std::to_string(tags) + " tags for "
                                      + std::to_string(d_.srcs.size()) + " inputs");
        std::vector<memory::desc> mds;
        for (size_t i = 0; i < d_.srcs.size(); ++i) {
            const std::string t = stag_of(s_.stag, i);
            mds.push_back(quant_.src_typed(t == "any" ? plain_desc(d_.srcs[i]) : make_desc(d_.srcs[i], t, "--stag")));
        }
        const memory::desc dst_md = quant_.dst_typed(make_desc(d_.dst, s_.dtag, "--dtag"));
        const prim::concat::primitive_desc pd(dst_md, s_.axis, mds, attr);
        bound_primitive b;
        b.prim = std::make_shared<prim::concat>(pd);
        b.impl = pd.impl_name();
        for (size_t i = 0; i < d_.srcs.size(); ++i)
            b.args[prim::PRIM_ARG_MULTIPLE_SRC + static_cast<int>(i)] =
                    from_plain(srcs_[i], d_.srcs[i], pd.src_desc(static_cast<int>(i)));
        b.args[prim::PRIM_ARG_DST] = from_plain(dst_old_, d_.dst, pd.dst_desc());
        return b;
    }

    std::vector<float> input(int arg) const override {
        const size_t i = static_cast<size_t>(arg - prim::PRIM_ARG_MULTIPLE_SRC);
        return arg >= prim::PRIM_ARG_MULTIPLE_SRC && i < srcs_.size() ? srcs_[i] : std::vector<float>();
    }

    const std::vector<float> &ref_base() override {
        if (ref_done_) return ref_;
        int64_t outer = 1;
        for (int i = 0; i < s_.axis; ++i) outer *= d_.dst[i];
        ref_.clear();
        for (int64_t o = 0; o < outer; ++o)
            for (size_t i = 0; i < srcs_.size(); ++i) {
                const int64_t chunk = outer ? volume(d_.srcs[i]) / outer : 0;
                ref_.insert(ref_.end(), srcs_[i].begin() + o * chunk, srcs_[i].begin() + (o + 1) * chunk);
            }
        if (ref_.empty()) ref_ = buffer(0);
        ref_done_ = true;
        return ref_;
    }

    prim::memory::data_type dst_type() const override { return quant_.dst_type(); }
    std::string data_types() const override { return quant_.data_types(); }

    // Bytes: every input read, dst written.
    double work(const prim::post_ops &) const override { return 4.0 * 2 * volume_f(d_.dst); }

private:
    concat_desc d_;
    settings s_;
    io_quant quant_;
    std::vector<std::vector<float>> srcs_;
    std::vector<float> ref_;
    bool ref_done_ = false;
};

} // namespace

std::string concat_case_desc(const std::string &text, const settings &s) {
    return desc_string(parse_with_mb(text, s));
}

std::unique_ptr<problem_case> make_concat_case(const std::string &text, const settings &s) {
    io_spec io;
    parse_io_spec(driver_kind::concat, s, io); // the case list skipped what it refuses
    return std::make_unique<concat_case>(parse_with_mb(text, s), s, io);
}

} // namespace bdl
