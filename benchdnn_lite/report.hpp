// What benchdnn_lite prints (doc/reference.md §4): one status line per case in C mode, perf
// lines in P mode, the final "P passed, F failed" line, and a progress line on a terminal.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace bdl {

class reporter {
public:
    // total: the number of cases the run will have (for the progress line).
    explicit reporter(int64_t total);

    // Numbers the next case (from 0 across the run).
    int64_t begin_case() { return next_++; }
    // "N:STATUS[ (detail)] __REPRO: repro"
    void status_line(int64_t index, const std::string &status, const std::string &detail,
                     const std::string &repro);
    // Any other stdout line (perf lines, verbose details).
    void line(const std::string &text);
    // Counts the case once it is finished; updates the progress line.
    void end_case(bool passed);

    int64_t passed() const { return passed_; }
    int64_t failed() const { return failed_; }
    // A comparison of two rates of one case (kind "perf_cmp": fused and unfused; "perf_onednn":
    // ours and oneDNN's). summary() prints their geometric means per kind and driver.
    void record_comparison(const std::string &kind, const std::string &driver, double a_rate,
                           double b_rate);
    // "KIND_geomean,DRIVER,CASES,A,B,RATIO" per recorded kind and driver (RATIO = A / B), then
    // "P passed, F failed", alone on the last line.
    void summary();

private:
    void clear_progress();
    void show_progress();

    int64_t total_, next_ = 0, passed_ = 0, failed_ = 0;
    double start_ms_;
    bool progress_; // stderr is a terminal
    bool progress_shown_ = false;
    struct comparisons {
        std::string kind, driver;
        int64_t cases = 0;
        double log_a = 0, log_b = 0; // sums of the logarithms of the rates
    };
    std::vector<comparisons> comparisons_;
};

} // namespace bdl
