// Output lines and the progress line.
#include "report.hpp"

#include <cmath>
#include <cstdio>
#include <unistd.h>

#include "perf.hpp"

namespace bdl {

reporter::reporter(int64_t total)
    : total_(total), start_ms_(now_ms()), progress_(isatty(STDERR_FILENO) == 1) {}

void reporter::clear_progress() {
    if (!progress_shown_) return;
    std::fputs("\r\033[K", stderr);
    std::fflush(stderr);
    progress_shown_ = false;
}

void reporter::show_progress() {
    if (!progress_) return;
    std::fprintf(stderr, "\r\033[K[%lld/%lld cases, %.1f s]", static_cast<long long>(done_),
                 static_cast<long long>(total_), (now_ms() - start_ms_) / 1000.0);
    std::fflush(stderr);
    progress_shown_ = true;
}

void reporter::line(const std::string &text) {
    clear_progress();
    std::fputs(text.c_str(), stdout);
    std::fputc('\n', stdout);
    std::fflush(stdout);
    show_progress();
}

void reporter::status_line(int64_t index, const std::string &status, const std::string &detail,
                           const std::string &repro) {
    std::string s = std::to_string(index) + ":" + status;
    if (!detail.empty()) {
        std::string one_line = detail;
        for (char &c : one_line)
            if (c == '\n' || c == '\r') c = ' ';
        s += " (" + one_line + ")";
    }
    line(s + " __REPRO: " + repro);
}

void reporter::end_case(case_status st) {
    counts_[static_cast<int>(st)]++;
    done_++;
    clear_progress();
    show_progress();
}

void reporter::record_comparison(const std::string &kind, const std::string &driver,
                                 double a_rate, double b_rate) {
    if (!(a_rate > 0) || !(b_rate > 0)) return; // a rate of 0: too fast to time, no ratio
    auto it = comparisons_.begin();
    while (it != comparisons_.end() && !(it->kind == kind && it->driver == driver)) ++it;
    if (it == comparisons_.end()) it = comparisons_.insert(it, comparisons {kind, driver});
    it->cases++;
    it->log_a += std::log(a_rate);
    it->log_b += std::log(b_rate);
}

void reporter::roof_line(const std::string &driver, const std::string &desc, double gflops,
                         const std::string &isa, int threads, double peak_gflops) {
    if (!(gflops > 0) || !(peak_gflops > 0)) return; // too fast to time, or no peak
    char buf[64];
    if (roof_peaks_printed_.insert(isa).second) { // each peak's line once
        std::snprintf(buf, sizeof buf, "%d,%.4g", threads, peak_gflops);
        line(std::string("roof_peak,") + isa + "," + buf);
    }
    std::snprintf(buf, sizeof buf, "%.4g,%.4g,%.1f", gflops, peak_gflops, 100.0 * gflops / peak_gflops);
    line("roof," + driver + "," + desc + "," + buf);
    auto it = roofs_.begin();
    while (it != roofs_.end() && it->driver != driver) ++it;
    if (it == roofs_.end()) it = roofs_.insert(it, comparisons {"roof", driver});
    it->cases++;
    it->log_a += std::log(gflops);
    it->log_b += std::log(peak_gflops);
}

void reporter::summary() {
    clear_progress();
    for (const comparisons &c : comparisons_) {
        const double a = std::exp(c.log_a / c.cases), b = std::exp(c.log_b / c.cases);
        std::printf("%s_geomean,%s,%lld,%.4g,%.4g,%.3f\n", c.kind.c_str(), c.driver.c_str(),
                    static_cast<long long>(c.cases), a, b, a / b);
    }
    for (const comparisons &c : roofs_) {
        const double a = std::exp(c.log_a / c.cases), b = std::exp(c.log_b / c.cases);
        std::printf("roof_geomean,%s,%lld,%.4g,%.4g,%.1f\n", c.driver.c_str(),
                    static_cast<long long>(c.cases), a, b, 100.0 * a / b);
    }
    auto n = [&](case_status st) { return static_cast<long long>(count(st)); };
    std::printf("tests:%lld passed:%lld skipped:%lld mistrusted:0 unimplemented:%lld "
                "invalid_arguments:%lld failed:%lld listed:%lld\n",
                static_cast<long long>(next_), n(case_status::passed), n(case_status::skipped),
                n(case_status::unimplemented), n(case_status::invalid_arguments),
                n(case_status::failed), n(case_status::listed));
    std::string last = std::to_string(passed()) + " passed, " + std::to_string(failed()) + " failed";
    if (n(case_status::skipped)) last += ", " + std::to_string(n(case_status::skipped)) + " skipped";
    if (n(case_status::listed)) last += ", " + std::to_string(n(case_status::listed)) + " listed";
    std::printf("%s\n", last.c_str());
    std::fflush(stdout);
}

} // namespace bdl
