// Option parsing and batch-file expansion for benchdnn_lite.
#include "parser.hpp"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "attr/algorithm_table.hpp"
#include "prim/error.hpp"
#include "tags.hpp"

namespace bdl {

namespace {

std::string upper(std::string s) {
    for (char &c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return s;
}

[[noreturn]] void bad(const std::string &token, const std::string &why) {
    throw option_error("bad option '" + token + "': " + why);
}

int64_t parse_int(const std::string &token, const std::string &value, int64_t lo, int64_t hi) {
    if (value.empty()) bad(token, "a number is needed");
    for (char c : value)
        if (!std::isdigit(static_cast<unsigned char>(c))) bad(token, "'" + value + "' is not a number");
    if (value.size() > 12) bad(token, "'" + value + "' is too large");
    const int64_t v = std::stoll(value);
    if (v < lo || v > hi)
        bad(token, "value must be in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
    return v;
}

// NUMBER of the fusion-string grammar: a finite decimal or +-inf; NaN refused.
float parse_float(const std::string &token, const std::string &value) {
    if (value.empty()) bad(token, "a number is needed");
    const std::string body = (value[0] == '-' || value[0] == '+') ? value.substr(1) : value;
    if (body == "inf") return value[0] == '-' ? -INFINITY : INFINITY;
    for (char c : body)
        if (!(std::isdigit(static_cast<unsigned char>(c)) || c == '.' || c == 'e' || c == 'E'
              || c == '-' || c == '+'))
            bad(token, "'" + value + "' is not a number");
    char *end = nullptr;
    errno = 0;
    const float v = std::strtof(value.c_str(), &end);
    if (end != value.c_str() + value.size() || std::isnan(v))
        bad(token, "'" + value + "' is not a number");
    return v;
}

// One eltwise algorithm by its fusion-string name or alias ("relu", "sigmoid").
prim::algorithm parse_alg(const std::string &token, const std::string &name) {
    if (name.empty()) bad(token, "an algorithm name is needed");
    for (char c : name)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_'))
            bad(token, "'" + name + "' is not an algorithm name");
    if (const auto *info = prim::impl::find_algorithm(name)) return info->alg;
    if (name == "bounded_relu") // an alias that also fixes alpha: say what it means instead
        bad(token, "write bounded_relu:A as --alg=clip --alpha=0 --beta=A");
    try { // aliases, through the fusion-string parser that knows them
        const prim::post_ops po = prim::parse_post_ops(name);
        if (po.len() == 1 && po.get_kind(0) == prim::post_ops::kind::eltwise)
            return po.entries()[0].alg;
    } catch (const prim::error &) {
    }
    bad(token, "unknown eltwise algorithm '" + name + "'");
}

std::vector<std::string> split(const std::string &s, char sep) {
    std::vector<std::string> out;
    size_t begin = 0;
    while (true) {
        const size_t end = s.find(sep, begin);
        out.push_back(s.substr(begin, end == std::string::npos ? std::string::npos : end - begin));
        if (end == std::string::npos) return out;
        begin = end + 1;
    }
}

std::string folder_of(const std::string &path) {
    const size_t slash = path.rfind('/');
    return slash == std::string::npos ? std::string() : path.substr(0, slash + 1);
}

} // namespace

bool apply_option(const std::string &token, run_options &opts) {
    if (token.empty() || token[0] != '-') return false;
    settings &s = opts.s;
    const size_t eq = token.find('=');
    const std::string key = token.substr(0, eq);
    const bool has_value = eq != std::string::npos;
    const std::string value = has_value ? token.substr(eq + 1) : std::string();
    auto need_value = [&] {
        if (!has_value) bad(token, "expected " + key + "=VALUE");
    };
    auto no_value = [&] {
        if (has_value) bad(token, key + " takes no value");
    };

    if (key == "--conv" || key == "--ip" || key == "--eltwise") {
        no_value();
        const driver_kind d = key == "--conv" ? driver_kind::conv
                              : key == "--ip" ? driver_kind::ip : driver_kind::eltwise;
        if (opts.driver != driver_kind::none && opts.driver != d)
            bad(token, std::string("the driver is already --") + driver_name(opts.driver)
                       + " (one driver per run)");
        opts.driver = d;
    } else if (key == "--mode") {
        need_value();
        const std::string m = upper(value);
        if (m != "C" && m != "P" && m != "CP" && m != "PC") bad(token, "mode must be C, P or CP");
        s.mode_c = m.find('C') != std::string::npos;
        s.mode_p = m.find('P') != std::string::npos;
    } else if (key == "--attr-post-ops") {
        need_value();
        try {
            s.chains = prim::parse_post_ops_list(value);
        } catch (const prim::error &e) {
            bad(token, e.what());
        }
    } else if (key == "--dir") {
        need_value();
        const std::string d = upper(value);
        if (d == "FWD_B") s.dir = direction::fwd_b;
        else if (d == "FWD_D") s.dir = direction::fwd_d;
        else if (d == "FWD_I") s.dir = direction::fwd_i;
        else bad(token, "direction must be FWD_B, FWD_D or FWD_I");
    } else if (key == "--alg") {
        need_value();
        std::vector<prim::algorithm> algs;
        for (const std::string &name : split(value, ',')) algs.push_back(parse_alg(token, name));
        s.algs = algs;
    } else if (key == "--alpha") {
        need_value();
        s.alpha = parse_float(token, value);
        s.alpha_given = true;
    } else if (key == "--beta") {
        need_value();
        s.beta = parse_float(token, value);
        s.beta_given = true;
    } else if (key == "--stag" || key == "--wtag" || key == "--dtag") {
        need_value();
        if (!parse_tag(value)) bad(token, "unknown layout tag '" + value + "'");
        (key == "--stag" ? s.stag : key == "--wtag" ? s.wtag : s.dtag) = value;
    } else if (key == "--mb") {
        need_value();
        s.mb = parse_int(token, value, 0, (int64_t(1) << 31) - 1);
    } else if (key == "--match") {
        need_value();
        s.match = value;
        s.match_re.reset();
        if (!value.empty()) {
            try {
                s.match_re = std::make_shared<const std::regex>(value);
            } catch (const std::regex_error &e) {
                bad(token, std::string("bad regular expression: ") + e.what());
            }
        }
    } else if (key == "--fused") {
        need_value();
        if (value == "on") s.fused = fused_mode::on;
        else if (value == "off") s.fused = fused_mode::off;
        else if (value == "both") s.fused = fused_mode::both;
        else bad(token, "must be on, off or both");
    } else if (key == "--cmp") {
        need_value();
        if (value == "onednn") {
#ifdef PRIM_WITH_ONEDNN
            s.cmp_onednn = true;
#else
            bad(token, "built without oneDNN (libdnnl-dev was not found at configure time)");
#endif
        } else if (value == "none") {
            s.cmp_onednn = false;
        } else {
            bad(token, "must be onednn or none");
        }
    } else if (key == "--max-ms-per-prb") {
        need_value();
        s.max_ms = static_cast<int>(parse_int(token, value, 1, 3600 * 1000));
    } else if (key == "--reset") {
        no_value();
        s = settings();
    } else if (key == "--verbose") {
        need_value();
        opts.verbose = static_cast<int>(parse_int(token, value, 0, 10));
    } else if (key.size() >= 2 && key.compare(0, 2, "-v") == 0 && key.compare(0, 3, "--v") != 0) {
        const std::string level = token.substr(2);
        opts.verbose = level.empty() ? 1 : static_cast<int>(parse_int(token, level, 0, 10));
    } else if (key == "--batch") {
        bad(token, "--batch is expanded before the run"); // not reached: expand_batches took it
    } else {
        bad(token, "unknown option");
    }
    return true;
}

std::vector<std::string> expand_batches(const std::vector<std::string> &args,
                                        const std::string &base_dir, int depth) {
    std::vector<std::string> out;
    for (const std::string &arg : args) {
        if (arg.compare(0, 8, "--batch=") != 0) {
            if (arg == "--batch") throw option_error("bad option '--batch': expected --batch=FILE");
            out.push_back(arg);
            continue;
        }
        const std::string name = arg.substr(8);
        if (name.empty()) throw option_error("bad option '" + arg + "': a file name is needed");
        if (depth >= 16)
            throw option_error("bad option '" + arg + "': batch files nested too deep (a loop?)");
        const std::string path = (name[0] == '/' ? std::string() : base_dir) + name;
        std::ifstream file(path);
        if (!file) throw option_error("bad option '" + arg + "': cannot open '" + path + "'");
        std::vector<std::string> tokens;
        std::string line;
        while (std::getline(file, line)) {
            const size_t hash = line.find('#');
            if (hash != std::string::npos) line.resize(hash);
            std::istringstream words(line);
            std::string word;
            while (words >> word) tokens.push_back(word);
        }
        const std::vector<std::string> inner = expand_batches(tokens, folder_of(path), depth + 1);
        out.insert(out.end(), inner.begin(), inner.end());
    }
    return out;
}

} // namespace bdl
