#!/usr/bin/env python3
"""Turns benchdnn_lite P-mode logs (--fused=both --cmp=onednn) into one CSV row per case, a text
table per batch with geometric means, and the same tables in Markdown.

    scripts/perf_table.py [--csv OUT.csv] [--markdown OUT.md] NAME=LOG [NAME=LOG ...]

NAME labels the batch (e.g. resnet50=doc/perf_data/resnet50.log). The lines read are those of
doc/benchdnn_lite.md: perf, perf_cmp, perf_onednn, perf_onednn_skipped and the status lines of
cases that did not run. Rates are GFLOP/s from MIN_MS; the ratios are those benchdnn_lite prints:
fusion speedup = unfused MIN_MS / fused MIN_MS, ours/oneDNN = oneDNN MIN_MS / ours MIN_MS (above
1 is better for fusion and for us). The same ratios from the medians are in the CSV too.
Python standard library only.
"""
import csv
import math
import re
import sys

COLUMNS = [
    "batch", "layer", "desc", "post_ops",
    "ours_impl", "fused_gflops", "fused_min_ms", "fused_median_ms",
    "unfused_gflops", "unfused_min_ms", "unfused_median_ms",
    "fusion_speedup", "fusion_speedup_median",
    "onednn_impl", "onednn_gflops", "onednn_min_ms", "onednn_median_ms",
    "ours_vs_onednn", "ours_vs_onednn_median", "note",
]


def layer_name(desc):
    """The n"NAME" of a descriptor without its model prefix ("resnet_50:conv1" -> "conv1")."""
    m = re.search(r'n"([^"]*)"', desc)
    if not m:
        return desc
    return m.group(1).split(":")[-1]


def ratio(a, b):
    return a / b if a and b else None


def parse_log(batch, path):
    """Rows of one log, in the order of its cases."""
    rows = {}
    order = []

    def row(desc, chain):
        key = (desc, chain)
        if key not in rows:
            rows[key] = {c: "" for c in COLUMNS}
            rows[key].update(batch=batch, layer=layer_name(desc), desc=desc, post_ops=chain)
            order.append(key)
        return rows[key]

    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            fields = line.split(",")
            kind = fields[0]
            if kind == "perf" and len(fields) == 8:
                _, _, impl, chain, desc, gflops, min_ms, median_ms = fields
                r = row(desc, chain)
                if impl.startswith("onednn:"):
                    side = "onednn"
                    r["onednn_impl"] = impl[len("onednn:"):]
                elif impl.endswith(":unfused"):
                    side = "unfused"
                else:
                    side = "fused"
                    r["ours_impl"] = impl
                r[side + "_gflops"] = gflops
                r[side + "_min_ms"] = min_ms
                r[side + "_median_ms"] = median_ms
            elif kind == "perf_cmp" and len(fields) == 7:
                row(fields[3], fields[2])["fusion_speedup"] = fields[6]
            elif kind == "perf_onednn" and len(fields) == 7:
                row(fields[3], fields[2])["ours_vs_onednn"] = fields[6]
            elif kind == "perf_onednn_skipped" and len(fields) >= 5:
                row(fields[3], fields[2])["note"] = "oneDNN skipped: " + ",".join(fields[4:])
            else:
                m = re.match(r"\d+:(FAILED|INVALID_ARGUMENTS|UNIMPLEMENTED)(.*) __REPRO: (.*)$", line)
                if m:
                    repro = m.group(3)
                    chain_m = re.search(r"--attr-post-ops=(\S+)", repro)
                    r = row(repro.split()[-1], chain_m.group(1) if chain_m else "")
                    r["note"] = (m.group(1) + m.group(2)).strip()
    for r in rows.values():
        if r["onednn_impl"].startswith("ref"):
            r["note"] = "oneDNN ran its reference fallback"
        def num(k):
            try:
                return float(r[k])
            except ValueError:
                return None
        med = ratio(num("unfused_median_ms"), num("fused_median_ms"))
        r["fusion_speedup_median"] = "%.3f" % med if med else ""
        ours = num("fused_median_ms") or num("unfused_median_ms")
        med = ratio(num("onednn_median_ms"), ours)
        r["ours_vs_onednn_median"] = "%.3f" % med if med and r["ours_vs_onednn"] else ""
    return [rows[k] for k in order]


def geomean(values):
    values = [v for v in values if v and v > 0]
    if not values:
        return None
    return math.exp(sum(math.log(v) for v in values) / len(values))


def fnum(s):
    try:
        return float(s)
    except (TypeError, ValueError):
        return None


def show(v, fmt="%.1f"):
    return fmt % v if v is not None else "-"


TABLE_HEAD = ["layer", "post-ops", "fused GF/s", "unfused GF/s", "fused/unfused",
              "oneDNN GF/s", "ours/oneDNN", "impl (ours, oneDNN)"]


def table_rows(rows):
    """Per case, then a geometric-mean row per chain and one for the whole batch."""
    out = []
    for r in rows:
        impls = ", ".join(x for x in (r["ours_impl"], r["onednn_impl"]) if x)
        out.append([r["layer"], r["post_ops"] or "(none)", show(fnum(r["fused_gflops"])),
                    show(fnum(r["unfused_gflops"])), show(fnum(r["fusion_speedup"]), "%.2f"),
                    show(fnum(r["onednn_gflops"])), show(fnum(r["ours_vs_onednn"]), "%.2f"),
                    "; ".join(x for x in (impls, r["note"]) if x)])
    chains = []
    for r in rows:
        if r["post_ops"] not in chains:
            chains.append(r["post_ops"])
    groups = [("geomean " + (c or "(none)"), [r for r in rows if r["post_ops"] == c]) for c in chains]
    if len(chains) > 1:
        groups.append(("geomean all", rows))
    for label, rs in groups:
        n_onednn = sum(1 for r in rs if fnum(r["ours_vs_onednn"]))
        out.append([label, "%d case%s" % (len(rs), "" if len(rs) == 1 else "s"),
                    show(geomean(fnum(r["fused_gflops"]) for r in rs)),
                    show(geomean(fnum(r["unfused_gflops"]) for r in rs)),
                    show(geomean(fnum(r["fusion_speedup"]) for r in rs), "%.2f"),
                    show(geomean(fnum(r["onednn_gflops"]) for r in rs if fnum(r["ours_vs_onednn"]))),
                    show(geomean(fnum(r["ours_vs_onednn"]) for r in rs), "%.2f"),
                    "%d compared with oneDNN" % n_onednn])
    return out


def text_table(title, head, body):
    widths = [max(len(str(x)) for x in col) for col in zip(head, *body)]
    lines = [title]
    for i, cells in enumerate([head] + body):
        lines.append("  ".join(str(c).ljust(w) if j in (0, 1, 7) else str(c).rjust(w)
                               for j, (c, w) in enumerate(zip(cells, widths))).rstrip())
        if i == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


def markdown_table(title, head, body):
    lines = ["### " + title, "", "| " + " | ".join(head) + " |",
             "|" + "|".join("---" if i in (0, 1, 7) else "--:" for i in range(len(head))) + "|"]
    for cells in body:
        bold = cells[0].startswith("geomean")
        lines.append("| " + " | ".join(("**%s**" % c if bold and c != "-" else c) for c in cells) + " |")
    return "\n".join(lines)


def main(argv):
    csv_out = md_out = None
    inputs = []
    args = list(argv)
    while args:
        a = args.pop(0)
        if a == "--csv":
            csv_out = args.pop(0)
        elif a == "--markdown":
            md_out = args.pop(0)
        elif "=" in a:
            inputs.append(a.split("=", 1))
        else:
            sys.exit("usage: perf_table.py [--csv OUT.csv] [--markdown OUT.md] NAME=LOG...")
    if not inputs:
        sys.exit("usage: perf_table.py [--csv OUT.csv] [--markdown OUT.md] NAME=LOG...")
    all_rows, texts, mds = [], [], []
    for batch, path in inputs:
        rows = parse_log(batch, path)
        all_rows += rows
        body = table_rows(rows)
        texts.append(text_table(batch, TABLE_HEAD, body))
        mds.append(markdown_table(batch, TABLE_HEAD, body))
    print("\n\n".join(texts))
    if csv_out:
        with open(csv_out, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=COLUMNS, lineterminator="\n")
            w.writeheader()
            w.writerows(all_rows)
    if md_out:
        with open(md_out, "w") as f:
            f.write("\n\n".join(mds) + "\n")


if __name__ == "__main__":
    main(sys.argv[1:])
