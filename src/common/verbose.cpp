#include "common/verbose.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <mutex>

#include "common/cpu_info.hpp"
#include "prim/cpu_isa.hpp"

namespace prim {
namespace impl {

int verbose_level() {
    static const int level = [] {
        const char *v = std::getenv("PRIM_VERBOSE");
        return v ? std::atoi(v) : 0;
    }();
    return level;
}

void verbose_print(const std::string &line) {
    static std::mutex mutex;
    static bool info_printed = false;
    std::lock_guard<std::mutex> lock(mutex);
    if (!info_printed) {
        info_printed = true;
        std::string isa;
        try {
            isa = cpu_isa_name(get_effective_cpu_isa());
        } catch (...) {
            isa = "invalid PRIM_MAX_CPU_ISA";
        }
        std::printf("prim_verbose,info,prim 0.1.0,max_isa:%s,%s\n", isa.c_str(),
                    to_string(get_cpu_info()).c_str());
    }
    std::printf("%s\n", line.c_str());
    std::fflush(stdout);
}

double now_ms() {
    using clock = std::chrono::steady_clock;
    return std::chrono::duration<double, std::milli>(clock::now().time_since_epoch()).count();
}

void verbose_print_exec(const char *kind, const std::string &impl, const std::string &desc,
                        const std::string &post_ops, double start_ms) {
    char ms[32];
    std::snprintf(ms, sizeof(ms), "%.4f", now_ms() - start_ms);
    verbose_print(std::string("prim_verbose,exec,") + kind + "," + impl + "," + desc + ","
                  + post_ops + "," + ms);
}

std::string dims_str(const memory::dims &dims) {
    std::string s;
    for (size_t i = 0; i < dims.size(); ++i) s += (i ? "x" : "") + std::to_string(dims[i]);
    return s;
}

std::string md_str(const memory::desc &md) {
    const std::string strides = md.is_dense() || md.is_any() || md.is_zero()
            ? "" : "(strides " + dims_str(md.strides()) + ")";
    // The data type only when it is not f32 ("abcd:u8:2x3x4x4"), so f32 lines read as before.
    const memory::data_type dt = md.get_data_type();
    const bool typed = dt != memory::data_type::f32 && dt != memory::data_type::undef;
    return md.layout() + strides + (typed ? std::string(":") + data_type_name(dt) : "")
            + ":" + dims_str(md.get_dims());
}

} // namespace impl
} // namespace prim
