// The drivers' own functions, which their rows of driver_table.cpp name: each turns a
// descriptor string and the current options into problem_cases (DRIVER/DRIVER_case.cpp), some
// read their --alg, write it back for REPRO and skip what they cannot run.
#pragma once
#include <memory>
#include <string>

#include "problem_case.hpp"
#include "settings.hpp"

namespace bdl {

// Parse the descriptor (throws prim::error invalid_arguments naming the problem), apply --mb,
// fill the data. The case keeps its reference result for all the chains that follow.
std::unique_ptr<problem_case> make_conv_case(const std::string &desc, const settings &s);
// A convolution whose chain po has a dw post-op: dst is the depthwise output; the case belongs
// to that chain (its reference runs the entries up to the dw).
std::unique_ptr<problem_case> make_conv_dw_case(const std::string &desc, const settings &s,
                                                const prim::post_ops &po);
std::unique_ptr<problem_case> make_ip_case(const std::string &desc, const settings &s);
// The algorithm of s.alg with --alpha/--beta when given, else its defaults.
std::unique_ptr<problem_case> make_eltwise_case(const std::string &desc, const settings &s);
// --alg of s.balg; --stag=TAG0:TAG1.
std::unique_ptr<problem_case> make_binary_case(const std::string &desc, const settings &s);
// --flags of s.flags (G, C, H); every forward direction runs as inference.
std::unique_ptr<problem_case> make_bnorm_case(const std::string &desc, const settings &s);
std::unique_ptr<problem_case> make_lnorm_case(const std::string &desc, const settings &s);
// --alg of s.salg (SOFTMAX, LOGSOFTMAX), --axis of s.axis; DESC dims joined by x.
std::unique_ptr<problem_case> make_softmax_case(const std::string &desc, const settings &s);
// --axis of s.axis, --stag=TAG0:TAG1:... (one tag: every input); DESC inputs joined by ':'.
std::unique_ptr<problem_case> make_concat_case(const std::string &desc, const settings &s);
// --alg of s.palg; --tag (--stag) src's layout, --dtag dst's; every forward direction runs as
// inference.
std::unique_ptr<problem_case> make_pool_case(const std::string &desc, const settings &s);

// The canonical descriptor of a case (--mb applied) without creating it, for --mode=L. Throws
// as the make_*_case functions do for a descriptor that does not parse.
std::string conv_case_desc(const std::string &desc, const settings &s);
std::string ip_case_desc(const std::string &desc, const settings &s);
std::string eltwise_case_desc(const std::string &desc, const settings &s);
std::string binary_case_desc(const std::string &desc, const settings &s);
std::string bnorm_case_desc(const std::string &desc, const settings &s);
std::string lnorm_case_desc(const std::string &desc, const settings &s);
std::string softmax_case_desc(const std::string &desc, const settings &s);
std::string concat_case_desc(const std::string &desc, const settings &s);
std::string pool_case_desc(const std::string &desc, const settings &s);

// --alg=VALUE of a driver into l (throws option_error naming the value).
void parse_conv_alg(const std::string &token, const std::string &value, option_lists &l);
void parse_eltwise_alg(const std::string &token, const std::string &value, option_lists &l);
void parse_binary_alg(const std::string &token, const std::string &value, option_lists &l);
void parse_softmax_alg(const std::string &token, const std::string &value, option_lists &l);
void parse_pool_alg(const std::string &token, const std::string &value, option_lists &l);

// What REPRO writes of a case's algorithm: "--alg=NAME " (eltwise: and its non-default
// --alpha/--beta).
std::string eltwise_repro_alg(const settings &s);
std::string binary_repro_alg(const settings &s);
std::string pool_repro_alg(const settings &s);

// The driver's own reason to skip a case ("" when it runs): eltwise, the alpha/beta values
// benchdnn skips (a parameter the algorithm does not use given non-zero, values the algorithm
// refuses); binary, SELECT.
std::string eltwise_skip_reason(const settings &s);
std::string binary_skip_reason(const settings &s);

} // namespace bdl
