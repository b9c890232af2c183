// What benchdnn_lite prints (doc/reference.md §4): one status line per case in C mode, perf
// lines in P mode, benchdnn's summary line "tests:N passed:P skipped:S ..." and then ours,
// "P passed, F failed[, S skipped][, L listed]", last; a progress line on a terminal.
#pragma once
#include <cstdint>
#include <set>
#include <string>
#include <vector>

namespace bdl {

// How a case ended. invalid_arguments and unimplemented count as failed in our last line;
// skipped and listed cases are not failures.
enum class case_status { passed, failed, skipped, listed, unimplemented, invalid_arguments };

class reporter {
public:
    // total: the number of cases the run will have (for the progress line).
    explicit reporter(int64_t total);

    // Numbers the next case (from 0 across the run).
    int64_t begin_case() { return next_++; }
    // The number the next case will get.
    int64_t next_index() const { return next_; }
    // "N:STATUS[ (detail)] __REPRO: repro"
    void status_line(int64_t index, const std::string &status, const std::string &detail,
                     const std::string &repro);
    // Any other stdout line (perf lines, verbose details).
    void line(const std::string &text);
    // Counts the case once it is finished; updates the progress line.
    void end_case(case_status st);

    int64_t passed() const { return count(case_status::passed); }
    // Failed, unimplemented and invalid cases: what makes the exit status 1.
    int64_t failed() const {
        return count(case_status::failed) + count(case_status::unimplemented)
               + count(case_status::invalid_arguments);
    }
    int64_t count(case_status st) const { return counts_[static_cast<int>(st)]; }
    // A comparison of two rates of one case (kind "perf_cmp": fused and unfused; "perf_onednn":
    // ours and oneDNN's). summary() prints their geometric means per kind and driver.
    void record_comparison(const std::string &kind, const std::string &driver, double a_rate,
                           double b_rate);
    // P mode, a convolution or inner product case's rate against the machine's measured FMA
    // peak (fma_peak.hpp): "roof,DRIVER,DESC,GFLOPS,PEAK_GFLOPS,PCT", after the peak's own line
    // "roof_peak,ISA,THREADS,PEAK_GFLOPS" the first time (an int8 case: the exact int8 peak,
    // "ISA:int8", and DRIVER "conv:int8"). summary() adds their geometric mean.
    void roof_line(const std::string &driver, const std::string &desc, double gflops,
                   const std::string &isa, int threads, double peak_gflops);
    // "KIND_geomean,DRIVER,CASES,A,B,RATIO" per recorded kind and driver (RATIO = A / B), then
    // "roof_geomean,DRIVER,CASES,GFLOPS,PEAK_GFLOPS,PCT" per driver with roof lines, then
    // benchdnn's "tests:N passed:P skipped:S mistrusted:0 unimplemented:U invalid_arguments:I
    // failed:F listed:L", then "P passed, F failed" (", S skipped" and ", L listed" when not 0)
    // alone on the last line.
    void summary();

private:
    void clear_progress();
    void show_progress();

    int64_t total_, next_ = 0, done_ = 0;
    int64_t counts_[6] = {};
    double start_ms_;
    bool progress_; // stderr is a terminal
    bool progress_shown_ = false;
    struct comparisons {
        std::string kind, driver;
        int64_t cases = 0;
        double log_a = 0, log_b = 0; // sums of the logarithms of the rates
    };
    std::vector<comparisons> comparisons_;
    std::vector<comparisons> roofs_; // kind "roof": a = the cases' rates, b = the peak
    std::set<std::string> roof_peaks_printed_; // the f32 peak's ISA, and "ISA:int8"
};

} // namespace bdl
