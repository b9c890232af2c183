#!/usr/bin/env python3
"""Draws the performance chart of doc/performance.md from the CSV of scripts/perf_table.py:
per layer, the fusion speedup (unfused time / fused time) and ours against oneDNN 2.6 (oneDNN
time / ours), one bar per post-ops chain, one column of panels per batch (ResNet-50, BERT), in
the manner of the fusion speedup graphs MIOpen publishes. Above 1 is better for fusion / for prim.

    scripts/perf_chart.py [--note TEXT] PERF.csv OUT.svg        (OUT.png works too)

--note adds TEXT (e.g. "2 threads, 2026-11-22") to every panel's first title line.

Needs gnuplot (Debian: apt-get install gnuplot-nox); Python standard library only.
"""
import csv
import math
import os
import subprocess
import sys
import tempfile

COLORS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b"]
TITLES = {"resnet50": "ResNet-50 convolutions (mb2)", "bert": "BERT-base inner products (mb128)"}
METRICS = [
    ("fusion_speedup", "fused vs unfused: unfused time / fused time"),
    ("ours_vs_onednn", "prim vs oneDNN 2.6: oneDNN time / prim time"),
]


def number(s):
    try:
        v = float(s)
    except (TypeError, ValueError):
        return None
    return v if v > 0 and math.isfinite(v) else None


def geomean(values):
    values = [v for v in values if v]
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else None


def quote(s):
    """A gnuplot double-quoted string; a "\\n" in s stays a line break."""
    return '"' + s.replace('"', '\\"') + '"'


def main(argv):
    note = ""
    if len(argv) >= 2 and argv[0] == "--note":
        note, argv = argv[1], argv[2:]
    if len(argv) != 2:
        sys.exit("usage: perf_chart.py [--note TEXT] PERF.csv OUT.svg|OUT.png")
    csv_path, out_path = argv
    with open(csv_path, newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        sys.exit("perf_chart.py: %s has no rows" % csv_path)

    batches = []  # [(batch, layers, chains)] in the order of the CSV
    for r in rows:
        if r["batch"] not in [b[0] for b in batches]:
            batches.append((r["batch"], [], []))
        _, layers, chains = next(b for b in batches if b[0] == r["batch"])
        if r["layer"] not in layers:
            layers.append(r["layer"])
        if r["post_ops"] not in chains:
            chains.append(r["post_ops"])

    tmp = tempfile.mkdtemp(prefix="perf_chart.")
    slots = [max(len(b[1]), 8) + 2 for b in batches]  # a narrow batch still gets room for its titles
    total_layers = sum(slots)
    width = max(1000, 48 * total_layers + 100)
    height = 900
    png = out_path.lower().endswith(".png")
    script = [
        "set terminal %s size %d,%d font 'Helvetica,11'%s" % (
            "pngcairo" if png else "svg", width, height, "" if png else " dynamic background '#ffffff'"),
        "set output " + quote(out_path),
        "set datafile missing '?'",
        "set style data histograms",
        "set style histogram clustered gap 1",
        "set style fill solid 0.85 border -1",
        "set boxwidth 0.9",
        "set termoption noenhanced",  # layer names have underscores
        "set grid ytics",
        "set format y '%g'",
        "set xtics rotate by -40 nomirror font ',9'",
        "set key top left horizontal font ',10'",
        "set title font ',11'",
        "set multiplot",
    ]
    x = 0.0
    for (batch, layers, chains), slot in zip(batches, slots):
        panel_w = slot / total_layers
        for m, (metric, label) in enumerate(METRICS):
            data = os.path.join(tmp, "%s_%s.dat" % (batch, metric))
            table = {(r["layer"], r["post_ops"]): number(r[metric]) for r in rows if r["batch"] == batch}
            values = [v for v in table.values() if v]
            with open(data, "w") as f:
                for layer in layers:
                    cells = [table.get((layer, c)) for c in chains]
                    f.write(quote(layer) + " " + " ".join("%.4f" % v if v else "?" for v in cells) + "\n")
            means = ", ".join("%s %.2f" % (c or "none", g) for c in chains
                              for g in [geomean(table.get((l, c)) for l in layers)] if g)
            hi = max(values + [1.0]) * 1.3  # room for the key
            script += [
                "set origin %.4f,%.4f" % (x, 0.5 - 0.5 * m),
                "set size %.4f,0.5" % panel_w,
                "set title " + quote("%s%s\\n%s\\ngeomean: %s" % (
                    TITLES.get(batch, batch), ", " + note if note else "", label, means or "-")),
                "set yrange [0:%.4g]" % hi,
                "unset arrow",
                "set arrow from graph 0, first 1 to graph 1, first 1 nohead lc rgb '#444444' dt 2",
                # A chain without any value here (oneDNN skipped it) keeps its colour but no bar.
                "plot " + ", ".join(
                    "%s using %d:xtic(1) title %s lc rgb %s" % (
                        quote(data), i + 2, quote(c or "(no post-ops)"), quote(COLORS[i % len(COLORS)]))
                    for i, c in enumerate(chains) if any(table.get((l, c)) for l in layers)),
            ]
        x += panel_w
    script.append("unset multiplot")
    gp = os.path.join(tmp, "chart.gp")
    with open(gp, "w") as f:
        f.write("\n".join(script) + "\n")
    try:
        subprocess.run(["gnuplot", gp], check=True)
    except FileNotFoundError:
        sys.exit("perf_chart.py: gnuplot not found (Debian: apt-get install gnuplot-nox)")
    print("wrote " + out_path)


if __name__ == "__main__":
    main(sys.argv[1:])
