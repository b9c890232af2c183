// The three drivers: each turns a descriptor string and the current options into
// problem_cases (conv/conv_case.cpp, ip/ip_case.cpp, eltwise/eltwise_case.cpp).
#pragma once
#include <memory>
#include <string>

#include "problem_case.hpp"
#include "settings.hpp"

namespace bdl {

// Parse the descriptor (throws prim::error invalid_arguments naming the problem), apply --mb,
// fill the data. The case keeps its reference result for all the chains that follow.
std::unique_ptr<problem_case> make_conv_case(const std::string &desc, const settings &s);
std::unique_ptr<problem_case> make_ip_case(const std::string &desc, const settings &s);
// One case per algorithm of --alg: alg with --alpha/--beta when given, else its defaults.
std::unique_ptr<problem_case> make_eltwise_case(const std::string &desc, prim::algorithm alg,
                                                const settings &s);

} // namespace bdl
