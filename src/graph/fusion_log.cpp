// Fusion records and their verbose lines (doc/graph.md, "The log").
#include "graph/fusion_log.hpp"

#include <cstdio>
#include <cstdlib>

namespace prim {
namespace graph {

std::string fusion_record::line() const {
    std::string s = "prim_verbose,fuse,";
    if (fused) {
        s += "fused," + pattern + ",";
        for (size_t i = 0; i < nodes.size(); ++i) s += (i ? "+" : "") + nodes[i];
        return s;
    }
    return s + "refused," + (nodes.size() > 0 ? nodes[0] : "") + "," +
           (nodes.size() > 1 ? nodes[1] : "") + "," + reason;
}

namespace detail {

bool verbose_fuse() {
    static const bool on = [] {
        const char *v = std::getenv("PRIM_VERBOSE");
        return v && std::atoi(v) >= 2;
    }();
    return on;
}

namespace {
void print_line(const std::string &line) {
    // One write per line, so lines from several threads do not interleave.
    const std::string l = line + "\n";
    std::fwrite(l.data(), 1, l.size(), stdout);
    std::fflush(stdout);
}
} // namespace

void log_fused(std::vector<fusion_record> &log, const std::string &pattern,
               const std::vector<std::string> &nodes) {
    fusion_record r;
    r.fused = true;
    r.pattern = pattern;
    r.nodes = nodes;
    log.push_back(r);
    if (verbose_fuse()) print_line(r.line());
}

void log_refused(std::vector<fusion_record> &log, const std::string &candidate,
                 const std::string &target, const std::string &why) {
    fusion_record r;
    r.nodes = {candidate, target};
    r.reason = candidate + " not fused into " + target + ": " + why;
    for (const auto &e : log)
        if (!e.fused && e.reason == r.reason) return; // one line per candidate
    log.push_back(r);
    if (verbose_fuse()) print_line(r.line());
}

void verbose_info(const std::string &text) {
    if (verbose_fuse()) print_line("prim_verbose,info,graph," + text);
}

} // namespace detail
} // namespace graph
} // namespace prim
