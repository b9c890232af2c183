#!/usr/bin/env python3
"""Issue 16's targets from benchdnn_lite logs (scripts/cpu_targets.sh): per target, the median
over rounds of prim / oneDNN, and whether it meets the goal.

  targets_table.py [--cpu TEXT] NAME=LOG [NAME=LOG ...]

NAME is one of resnet50, resnet50_avx2, long_chain, bert; a name may come once per round. Each
log holds benchdnn_lite --mode=P --cmp=onednn output: perf_onednn lines per case (the last field
is prim / oneDNN), perf_onednn_geomean, and for the convolutions roof_geomean (the last field is
the % of the machine's FMA peak).
"""
import argparse
import statistics
import sys
from collections import defaultdict

# name: (what the issue asks, goal of the geomean ratio)
TARGETS = {
    "resnet50": ("ResNet-50 20 layers sum+relu, AVX-512", 1.10),
    "resnet50_avx2": ("ResNet-50 20 layers sum+relu, PRIM_MAX_CPU_ISA=avx2 vs oneDNN's AVX2", 1.05),
    "long_chain": ("8-entry chain (sum first) on its 4 layers", 1.25),
    "bert": ("BERT inner products mb128 gelu_erf", 1.05),
}
LOWEST_LAYER_GOAL = 0.95
ROOF_GOAL = 70.0


def parse(path):
    """(geomean ratio, {case: ratio}, roof %) of one log; None where the log lacks it."""
    geomean, cases, roof = None, {}, None
    with open(path) as f:
        for line in f:
            fields = line.rstrip("\n").split(",")
            if fields[0] == "perf_onednn" and len(fields) >= 7:
                cases[fields[3]] = float(fields[-1])
            elif fields[0] == "perf_onednn_geomean":
                geomean = float(fields[-1])
            elif fields[0] == "roof_geomean":
                roof = float(fields[-1])
    return geomean, cases, roof


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cpu", default="", help="the CPU the logs were measured on")
    ap.add_argument("logs", nargs="+", metavar="NAME=LOG")
    args = ap.parse_args()
    geomeans, per_case, roofs = defaultdict(list), defaultdict(lambda: defaultdict(list)), []
    for item in args.logs:
        name, _, path = item.partition("=")
        if name not in TARGETS:
            sys.exit(f"targets_table.py: unknown name {name!r} (one of {', '.join(TARGETS)})")
        geomean, cases, roof = parse(path)
        if geomean is None:
            sys.exit(f"targets_table.py: {path} has no perf_onednn_geomean line (a build without "
                     "oneDNN, or a failed run?)")
        geomeans[name].append(geomean)
        for case, ratio in cases.items():
            per_case[name][case].append(ratio)
        if name == "resnet50" and roof is not None:
            roofs.append(roof)

    def row(target, goal, values, unit="x"):
        digits = 3 if unit == "x" else 1
        med = statistics.median(values)
        met = "yes" if med >= goal else "no"
        spread = f"{min(values):.{digits}f}-{max(values):.{digits}f}" if len(values) > 1 else "-"
        return (f"| {target} | {goal:g}{unit} | {med:.{digits}f}{unit} | {spread} | {len(values)} "
                f"| {met} |")

    if args.cpu:
        print(f"CPU: {args.cpu}\n")
    print("| target | goal | median | range | rounds | met? |")
    print("|---|---|---|---|---|---|")
    for name, (target, goal) in TARGETS.items():
        if name not in geomeans:
            continue
        print(row(target, goal, geomeans[name]))
        if name == "resnet50":
            medians = {c: statistics.median(r) for c, r in per_case[name].items()}
            lowest = min(medians, key=medians.get)
            print(row(f"lowest layer: {lowest}", LOWEST_LAYER_GOAL, per_case[name][lowest]))
            if roofs:
                print(row("ResNet-50 batch, % of the FMA peak (geomean)", ROOF_GOAL, roofs, "%"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
