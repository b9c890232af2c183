// benchdnn_lite --onnx: whole models through the ONNX front end and the graph fuser
// (doc/benchdnn_lite.md, CONTRACT §4 "Models").
//   benchdnn_lite --onnx [--mode=C|P|CP] [--fused=on|off|both] [--data=DIR] [--mb=N] MODEL.onnx...
// C mode with --data compares every output with the folder's expected output_K.pb; without it,
// the fused run with the unfused run of the same graph on generated inputs. P mode times the
// runs (fused, unfused, or both alternating with their ratio).
#include "onnx/onnx_driver.hpp"

#if PRIM_WITH_ONNX

#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/verbose.hpp"
#include "perf.hpp"
#include "prim/cpu_isa.hpp"
#include "prim/error.hpp"
#include "prim/graph.hpp"
#include "prim/onnx.hpp"
#include "report.hpp"

namespace bdl {

namespace {

using tensor_map = std::map<std::string, prim::graph::tensor>;

struct onnx_settings {
    bool mode_c = true, mode_p = false;
    std::string fused = "on"; // on | off | both
    std::string data;         // test-data folder, "" for generated inputs
    int64_t mb = -1;          // batch for the inputs' -1 (symbolic) dim 0; -1: 1
    int max_ms = 2000;
    int verbose = 0;
};

struct onnx_job {
    onnx_settings s;
    std::string model;
};

bool file_exists(const std::string &path) {
    struct stat st;
    return ::stat(path.c_str(), &st) == 0;
}

std::string value_of(const std::string &token, const std::string &name) {
    return token.compare(0, name.size(), name) == 0 ? token.substr(name.size()) : std::string();
}

int to_int(const std::string &token, const std::string &text) {
    size_t used = 0;
    int v = 0;
    try {
        v = std::stoi(text, &used);
    } catch (const std::exception &) {
        used = 0;
    }
    if (used != text.size() || text.empty() || v < 0)
        throw std::invalid_argument("bad value in '" + token + "'");
    return v;
}

// The options and models in order; throws std::invalid_argument naming a bad option.
std::vector<onnx_job> parse(const std::vector<std::string> &args) {
    std::vector<onnx_job> jobs;
    onnx_settings s;
    for (size_t i = 1; i < args.size(); ++i) {
        const std::string &t = args[i];
        if (t.rfind("--mode=", 0) == 0) {
            const std::string m = value_of(t, "--mode=");
            if (m != "C" && m != "P" && m != "CP" && m != "PC")
                throw std::invalid_argument("bad mode in '" + t + "' (C, P or CP)");
            s.mode_c = m.find('C') != std::string::npos;
            s.mode_p = m.find('P') != std::string::npos;
        } else if (t.rfind("--fused=", 0) == 0) {
            s.fused = value_of(t, "--fused=");
            if (s.fused != "on" && s.fused != "off" && s.fused != "both")
                throw std::invalid_argument("bad value in '" + t + "' (on, off or both)");
        } else if (t.rfind("--data=", 0) == 0) {
            s.data = value_of(t, "--data=");
            if (!s.data.empty() && !file_exists(s.data))
                throw std::invalid_argument("--data folder '" + s.data + "' does not exist");
        } else if (t.rfind("--mb=", 0) == 0) {
            const int mb = to_int(t, value_of(t, "--mb="));
            s.mb = mb == 0 ? -1 : mb; // --mb=0: no override, as benchdnn
        } else if (t.rfind("--max-ms-per-prb=", 0) == 0) {
            s.max_ms = to_int(t, value_of(t, "--max-ms-per-prb="));
        } else if (t.rfind("-v", 0) == 0 && t.size() == 3 && std::isdigit(static_cast<unsigned char>(t[2]))) {
            s.verbose = t[2] - '0';
        } else if (t.rfind("--verbose=", 0) == 0) {
            s.verbose = to_int(t, value_of(t, "--verbose="));
        } else if (t.rfind("-", 0) == 0) {
            throw std::invalid_argument("unknown option '" + t + "' for --onnx");
        } else {
            if (!file_exists(t)) throw std::invalid_argument("model file '" + t + "' does not exist");
            jobs.push_back({s, t});
        }
    }
    if (jobs.empty()) throw std::invalid_argument("--onnx: no model file given");
    return jobs;
}

std::string repro_of(const onnx_job &j) {
    std::string r = "--onnx";
    if (j.s.mode_c && j.s.mode_p) r += " --mode=CP";
    else if (j.s.mode_p) r += " --mode=P";
    if (j.s.fused != "on") r += " --fused=" + j.s.fused;
    if (!j.s.data.empty()) r += " --data=" + j.s.data;
    if (j.s.mb > 0) r += " --mb=" + std::to_string(j.s.mb);
    return r + " " + j.model;
}

// input_0.pb... (graph inputs in order) and output_0.pb... (graph outputs in order).
tensor_map read_data(const std::string &dir, const std::vector<prim::graph::value_info> &infos,
                     const char *prefix) {
    tensor_map out;
    for (size_t k = 0; k < infos.size(); ++k) {
        const std::string path = dir + "/" + prefix + std::to_string(k) + ".pb";
        if (!file_exists(path)) throw std::runtime_error("missing " + path + " for '" + infos[k].name + "'");
        out[infos[k].name] = prim::read_tensor_pb(path);
    }
    return out;
}

// Deterministic inputs in [-1, 1): a function of the input's position and the element's index;
// an integer input (a quantized model's u8, s8 or s32) takes integers of its type's range.
tensor_map generated_inputs(const std::vector<prim::graph::value_info> &infos, int64_t mb) {
    tensor_map out;
    for (size_t k = 0; k < infos.size(); ++k) {
        prim::graph::tensor t;
        t.dims = infos[k].dims;
        for (size_t d = 0; d < t.dims.size(); ++d)
            if (t.dims[d] < 0) t.dims[d] = d == 0 && mb > 0 ? mb : 1;
        // The model is not compiled yet (the inputs give its batch): its sizes are checked here.
        const std::string what = "input '" + infos[k].name + "' (dims " + prim::impl::dims_str(t.dims) + ")";
        int64_t n = 1;
        for (const auto v : t.dims) {
            if (v > 0 && n > prim::graph::max_elements / v)
                throw prim::error(prim::status::unimplemented, what + ": more than 2^40 elements");
            n *= v;
        }
        try {
            t.data.resize(static_cast<size_t>(n));
        } catch (const std::bad_alloc &) {
            throw prim::error(prim::status::out_of_memory, what + ": " + std::to_string(n) +
                                                               " values do not fit in memory");
        }
        t.dt = infos[k].dt;
        for (int64_t i = 0; i < n; ++i) {
            const int64_t v = (i * 7919 + static_cast<int64_t>(k) * 104729) % 2001;
            float &x = t.data[static_cast<size_t>(i)];
            switch (t.dt) {
                case prim::memory::data_type::u8: x = static_cast<float>(v % 256); break;
                case prim::memory::data_type::s8: x = static_cast<float>(v % 256 - 128); break;
                case prim::memory::data_type::s32: x = static_cast<float>(v - 1000); break;
                default: x = static_cast<float>(v - 1000) / 1000.f; break;
            }
        }
        out[infos[k].name] = std::move(t);
    }
    return out;
}

// The batch the inputs give the model's symbolic dim 0 (-1 when no input has one).
int64_t batch_of(const std::vector<prim::graph::value_info> &infos, const tensor_map &inputs) {
    for (const auto &info : infos) {
        auto it = inputs.find(info.name);
        if (!info.dims.empty() && info.dims[0] < 0 && it != inputs.end() && !it->second.dims.empty())
            return it->second.dims[0];
    }
    return -1;
}

// got against want, output by output: |a - b| <= 1e-4 max(1, M) + 1e-3 |b|, M = max |b| of the
// output; for a quantized model (CONTRACT §6) 0.04 max(1, M) for an f32 output and 1 for an
// integer one. worst_rel: the worst |a - b| / max(1, M).
struct comparison {
    int failed_outputs = 0;
    double worst_abs = 0, worst_rel = 0;
    std::string first_problem;
};

comparison compare(const tensor_map &got, const tensor_map &want, bool quantized) {
    comparison c;
    for (const auto &w : want) {
        auto g = got.find(w.first);
        if (g == got.end() || g->second.data.size() != w.second.data.size()
            || g->second.dims != w.second.dims) {
            ++c.failed_outputs;
            if (c.first_problem.empty())
                c.first_problem = "output '" + w.first + "' is missing or has other dims";
            continue;
        }
        double m = 0;
        for (float b : w.second.data) m = std::max(m, std::fabs(static_cast<double>(b)));
        bool bad = false;
        for (size_t i = 0; i < w.second.data.size(); ++i) {
            const double a = g->second.data[i], b = w.second.data[i];
            const double err = std::isnan(a) != std::isnan(b) ? INFINITY
                               : std::isnan(a)               ? 0.0
                                                             : std::fabs(a - b);
            c.worst_abs = std::max(c.worst_abs, err);
            c.worst_rel = std::max(c.worst_rel, err / std::max(1.0, m));
            const double tolerance = !quantized ? 1e-4 * std::max(1.0, m) + 1e-3 * std::fabs(b)
                                     : w.second.dt == prim::memory::data_type::f32 ? 0.04 * std::max(1.0, m) : 1.0;
            if (err > tolerance) bad = true;
        }
        if (bad) ++c.failed_outputs;
    }
    return c;
}

std::string fmt(double v, const char *f = "%.4g") {
    char buf[64];
    std::snprintf(buf, sizeof buf, f, v);
    return buf;
}

// One model: load, compile, then the modes. Returns the case's status.
case_status run_model(const onnx_job &j, int64_t index, reporter &rep) {
    const std::string repro = repro_of(j);
    const bool want_fused = j.s.fused != "off", want_unfused = j.s.fused != "on";
    prim::graph::model m;
    std::unique_ptr<prim::graph::compiled_model> fused, unfused;
    std::string phase = "load";
    try {
        const double t0 = now_ms();
        prim::onnx_options lo;
        m = prim::load_onnx(j.model, lo);
        const double t1 = now_ms();
        bool quantized = false;  // a quantized model: CONTRACT §6's tolerance
        for (const auto &n : m.nodes)
            for (const char *q : {"QuantizeLinear", "DequantizeLinear", "QLinearConv", "QLinearMatMul",
                                  "ConvInteger", "MatMulInteger"})
                quantized = quantized || n.op_type == q;
        phase = "inputs";
        // The inputs first: their batch lets both plans be built (shapes, fusion, primitives,
        // weights in their layouts) inside the timed compile instead of lazily at the first run.
        const std::vector<prim::graph::value_info> inputs_info = m.inputs, outputs_info = m.outputs;
        const tensor_map inputs = j.s.data.empty() ? generated_inputs(inputs_info, j.s.mb)
                                                   : read_data(j.s.data, inputs_info, "input_");
        phase = "compile";
        prim::graph::options fo;
        fo.batch = j.s.mb > 0 ? j.s.mb : batch_of(inputs_info, inputs);
        // The unfused run is needed to check the fused one when no expected data is given.
        const bool need_unfused = want_unfused || (j.s.mode_c && j.s.data.empty());
        prim::graph::options uo = fo;
        uo.fuse = false;
        const double t2 = now_ms();
        if (need_unfused) // a copy of the model when the fused side needs it too
            unfused = want_fused ? std::make_unique<prim::graph::compiled_model>(m, uo)
                                 : std::make_unique<prim::graph::compiled_model>(std::move(m), uo);
        const double t3 = now_ms();
        if (want_fused) fused = std::make_unique<prim::graph::compiled_model>(std::move(m), fo);
        const double t4 = now_ms();
        if (j.s.verbose >= 2) {
            // A plan still missing (an input dim other than the batch is symbolic) would be
            // built at the first run: say so rather than print a compile time that is not one.
            const auto figure = [](const prim::graph::compiled_model *cm, double ms) {
                return cm && cm->steps().empty() ? std::string("deferred to the first run")
                                                 : fmt(ms, "%.3f") + "ms";
            };
            rep.line("  load=" + fmt(t1 - t0, "%.3f") + "ms fuse+compile="
                     + (want_fused ? figure(fused.get(), t4 - t3) : std::string("none"))
                     + (need_unfused ? " unfused compile=" + figure(unfused.get(), t3 - t2) : ""));
        }

        if (j.s.mode_c) {
            phase = "run";
            tensor_map want;
            std::vector<std::pair<const char *, const prim::graph::compiled_model *>> sides;
            if (j.s.data.empty()) {
                want = unfused->run(inputs);
                if (fused) sides.push_back({"fused", fused.get()});
            } else {
                want = read_data(j.s.data, outputs_info, "output_");
                if (fused) sides.push_back({"fused", fused.get()});
                if (want_unfused) sides.push_back({"unfused", unfused.get()});
            }
            comparison worst;
            std::string bad_side;
            for (const auto &side : sides) {
                const comparison c = compare(side.second->run(inputs), want, quantized);
                if (j.s.verbose >= 1)
                    rep.line(std::string("  ") + side.first + ": worst_abs " + fmt(c.worst_abs)
                             + " worst_rel " + fmt(c.worst_rel));
                if (c.failed_outputs && bad_side.empty()) {
                    worst = c;
                    bad_side = side.first;
                }
            }
            if (!bad_side.empty()) {
                rep.status_line(index, "FAILED",
                        (bad_side == "fused" ? "" : bad_side + ": ") + std::string("outputs:")
                                + std::to_string(worst.failed_outputs) + " worst_abs:"
                                + fmt(worst.worst_abs) + " worst_rel:" + fmt(worst.worst_rel)
                                + (worst.first_problem.empty() ? "" : " " + worst.first_problem),
                        repro);
                return case_status::failed;
            }
            rep.status_line(index, "PASSED", "", repro);
        }
        if (j.s.mode_p) {
            phase = "perf";
            // The f32 kernels' name: on a VNNI CPU they are the avx512 ones.
            const prim::cpu_isa isa = std::min(prim::get_effective_cpu_isa(), prim::cpu_isa::avx512);
            const std::string impl = std::string("jit:") + prim::cpu_isa_name(isa);
            const auto line = [&](const std::string &who, const timing &t) {
                rep.line("perf,onnx," + who + "," + j.model + "," + fmt(t.min_ms, "%.4g") + ","
                         + fmt(t.median_ms, "%.4g"));
            };
            if (!want_unfused) {
                line(impl, time_runs([&] { fused->run(inputs); }, j.s.max_ms));
            } else if (!want_fused) {
                line(impl + ":unfused", time_runs([&] { unfused->run(inputs); }, j.s.max_ms));
            } else {
                timing tf, tu;
                time_alternating([&] { fused->run(inputs); }, [&] { unfused->run(inputs); },
                                 j.s.max_ms, tf, tu);
                line(impl, tf);
                line(impl + ":unfused", tu);
                rep.line("perf_cmp,onnx," + j.model + "," + fmt(tf.median_ms) + ","
                         + fmt(tu.median_ms) + "," + fmt(tu.median_ms / tf.median_ms, "%.3f"));
            }
            if (!j.s.mode_c) rep.status_line(index, "PASSED", "", repro);
        }
        return case_status::passed;
    } catch (const prim::error &e) {
        const bool unimpl = e.get_status() == prim::status::unimplemented;
        const bool invalid = e.get_status() == prim::status::invalid_arguments;
        rep.status_line(index, unimpl ? "UNIMPLEMENTED" : invalid ? "INVALID_ARGUMENTS" : "FAILED",
                        phase + ": " + e.what(), repro);
        return unimpl ? case_status::unimplemented
                      : invalid ? case_status::invalid_arguments : case_status::failed;
    } catch (const std::exception &e) {
        rep.status_line(index, "FAILED", phase + ": " + e.what(), repro);
        return case_status::failed;
    }
}

} // namespace

int run_onnx_driver(const std::vector<std::string> &args) {
    std::vector<onnx_job> jobs;
    try {
        jobs = parse(args);
    } catch (const std::exception &e) {
        std::fprintf(stderr, "benchdnn_lite: %s\n", e.what());
        return 2;
    }
    reporter rep(static_cast<int64_t>(jobs.size()));
    for (const onnx_job &j : jobs) {
        const int64_t index = rep.begin_case();
        rep.end_case(run_model(j, index, rep));
    }
    rep.summary();
    return rep.failed() == 0 ? 0 : 1;
}

} // namespace bdl

#endif // PRIM_WITH_ONNX
