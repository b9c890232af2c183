// The drivers: each turns a descriptor string and the current options into
// problem_cases (conv/conv_case.cpp, ip/ip_case.cpp, eltwise/eltwise_case.cpp,
// binary/binary_case.cpp, norm/norm_case.cpp).
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

} // namespace bdl
