// Runs one case (a problem_case with one post-ops chain) in the modes the options ask for and
// reports it: correctness against the reference (C), timing (P).
#pragma once
#include <string>

#include "parser.hpp"
#include "problem_case.hpp"
#include "report.hpp"

namespace bdl {

// repro: the REPRO text of this case. Returns nothing: the reporter counts passes and failures.
void run_case(problem_case &pc, const prim::post_ops &po, const std::string &repro,
              const run_options &opts, reporter &rep);

// Reports a case that could not even be set up (bad descriptor, bad tag, ...) from its error.
// P mode, convolution and inner product: the roof line of a rate (report.hpp), against the FMA
// peak measured at the first such line.
void roof(reporter &rep, driver_kind driver, const std::string &desc, double gflops, bool int8 = false);

void report_error_case(const std::exception &e, const std::string &repro, reporter &rep);

// Reports a case that is not run: SKIPPED (reason) or, in list mode, LISTED.
void report_other_case(case_status st, const std::string &reason, const std::string &repro,
                       reporter &rep);

} // namespace bdl
