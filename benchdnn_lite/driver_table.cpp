// The table of benchdnn_lite's drivers (driver_table.hpp): one row each.
#include "driver_table.hpp"

#include <stdexcept>

#include "drivers.hpp"
#include "onednn/onednn_drivers.hpp"

namespace bdl {

namespace {

#ifdef PRIM_WITH_ONEDNN
#define ONEDNN_SIDE(f) &f
#else
#define ONEDNN_SIDE(f) nullptr // built without oneDNN: --cmp=onednn is refused
#endif

// The loops the io and normalization drivers share after their own ones.
#define IO_TAIL "mb oscale scales zp chains fpmath inplace"

driver_info &add(std::vector<driver_info> &t, driver_kind kind, const char *name,
                 driver_family family, const char *loops) {
    t.emplace_back();
    driver_info &r = t.back();
    r.kind = kind;
    r.name = name;
    r.family = family;
    r.loops = loops;
    return r;
}

std::vector<driver_info> make_table() {
    using f = driver_family;
    std::vector<driver_info> t;
    driver_info *r = &add(t, driver_kind::conv, "conv", f::weighted,
                          "dir dt bia_dt stag wtag dtag strides conv_alg oscale scales zp chains fpmath mb inplace plan");
    r->takes = takes_plan;
    r->parse_alg = parse_conv_alg;
    r->runs_strides = true;
    r->case_desc = conv_case_desc;
    r->make_case = make_conv_case;
    r->make_dw_case = make_conv_dw_case;
    r->onednn = ONEDNN_SIDE(onednn_conv);

    r = &add(t, driver_kind::ip, "ip", f::weighted,
             "dir dt bia_dt stag wtag dtag strides oscale scales zp chains fpmath mb inplace");
    r->runs_strides = true;
    r->case_desc = ip_case_desc;
    r->make_case = make_ip_case;
    r->onednn = ONEDNN_SIDE(onednn_ip);

    r = &add(t, driver_kind::eltwise, "eltwise", f::io, "dir dt stag dtag strides eltwise_alg alpha beta " IO_TAIL);
    r->takes = takes_tag;
    r->parse_alg = parse_eltwise_alg;
    r->repro_alg = eltwise_repro_alg;
    r->strides_parts = 2;
    r->runs_strides = r->runs_inplace = true;
    r->case_desc = eltwise_case_desc;
    r->make_case = make_eltwise_case;
    r->skip_reason = eltwise_skip_reason;
    r->onednn = ONEDNN_SIDE(onednn_eltwise);

    r = &add(t, driver_kind::binary, "binary", f::io, "dir dt stag dtag strides binary_alg " IO_TAIL);
    r->parse_alg = parse_binary_alg;
    r->repro_alg = binary_repro_alg;
    r->stag_per_source = true;
    r->case_desc = binary_case_desc;
    r->make_case = make_binary_case;
    r->skip_reason = binary_skip_reason;
    r->onednn = ONEDNN_SIDE(onednn_binary);

    r = &add(t, driver_kind::bnorm, "bnorm", f::normalization, "dir dt stag dtag strides flags " IO_TAIL);
    r->takes = takes_flags | takes_tag;
    r->stag_per_source = true;
    r->case_desc = bnorm_case_desc;
    r->make_case = make_bnorm_case;
    r->onednn = ONEDNN_SIDE(onednn_bnorm);

    r = &add(t, driver_kind::lnorm, "lnorm", f::normalization, "dir dt stag dtag strides flags " IO_TAIL);
    r->takes = takes_flags | takes_tag;
    r->stag_per_source = true;
    r->case_desc = lnorm_case_desc;
    r->make_case = make_lnorm_case;
    r->onednn = ONEDNN_SIDE(onednn_lnorm);

    r = &add(t, driver_kind::softmax, "softmax", f::io, "dir dt stag dtag strides softmax_alg axis " IO_TAIL);
    r->takes = takes_axis;
    r->parse_alg = parse_softmax_alg;
    r->case_desc = softmax_case_desc;
    r->make_case = make_softmax_case;
    r->onednn = ONEDNN_SIDE(onednn_softmax);

    r = &add(t, driver_kind::concat, "concat", f::io, "dir dt stag dtag strides axis " IO_TAIL);
    r->takes = takes_axis;
    r->stag_per_source = true;
    r->runs_post_ops = false;
    r->case_desc = concat_case_desc;
    r->make_case = make_concat_case;
    r->onednn = ONEDNN_SIDE(onednn_concat);

    r = &add(t, driver_kind::pool, "pool", f::io, "dir dt stag dtag strides pool_alg " IO_TAIL);
    r->takes = takes_tag;
    r->parse_alg = parse_pool_alg;
    r->repro_alg = pool_repro_alg;
    r->case_desc = pool_case_desc;
    r->make_case = make_pool_case;
    r->onednn = ONEDNN_SIDE(onednn_pool);
    return t;
}

} // namespace

const std::vector<driver_info> &all_drivers() {
    static const std::vector<driver_info> table = make_table();
    return table;
}

const driver_info &driver_of(driver_kind d) {
    for (const driver_info &row : all_drivers())
        if (row.kind == d) return row;
    throw std::logic_error("driver_of: no row for this driver");
}

const driver_info *find_driver_option(const std::string &option) {
    for (const driver_info &row : all_drivers())
        if (option == std::string("--") + row.name) return &row;
    return nullptr;
}

std::string driver_options_text(unsigned takes, const char *separator, const char *last) {
    std::vector<std::string> names;
    for (const driver_info &row : all_drivers())
        if ((row.takes & takes) == takes) names.push_back(std::string("--") + row.name);
    std::string text;
    for (size_t i = 0; i < names.size(); ++i)
        text += (i == 0 ? "" : i + 1 == names.size() ? last : separator) + names[i];
    return text;
}

} // namespace bdl
