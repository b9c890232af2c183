// The fusion log: records of fusions made and refused, printed under PRIM_VERBOSE=2.
#pragma once
#include <string>
#include <vector>

#include "prim/graph.hpp"

namespace prim {
namespace graph {
namespace detail {

// PRIM_VERBOSE >= 2 (read once per process).
bool verbose_fuse();
void log_fused(std::vector<fusion_record> &log, const std::string &pattern,
               const std::vector<std::string> &nodes);
void log_refused(std::vector<fusion_record> &log, const std::string &candidate,
                 const std::string &target, const std::string &why);
// A "prim_verbose,info,graph,..." line under PRIM_VERBOSE=2.
void verbose_info(const std::string &text);

} // namespace detail
} // namespace graph
} // namespace prim
