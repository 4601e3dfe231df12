#!/usr/bin/env python3
"""Compares RESULT rows of several variants: VARS="a b" cmp.py files (named <var>-<round>.txt);
each row keeps its fastest time per variant; ratios against the first variant."""
import os, sys, collections
vars_ = os.environ.get("VARS", "base new").split()
best = collections.defaultdict(dict)
order = []
for path in sys.argv[1:]:
    var = os.path.basename(path).rsplit("-", 1)[0]
    if var not in vars_:
        continue
    for line in open(path, errors="replace"):
        f = line.rstrip("\n").split("\t")
        if len(f) < 7 or f[0] != "RESULT" or f[1] != "vkalgo":
            continue
        key = (f[2], f[3])
        try:
            ms = float(f[5])
        except ValueError:
            continue
        if key not in best:
            order.append(key)
        if ms > 0 and (var not in best[key] or ms < best[key][var]):
            best[key][var] = ms
print("| row | case | " + " | ".join(f"{v} ms" for v in vars_) + " | " + " | ".join(f"{v}/{vars_[0]}" for v in vars_[1:]) + " |")
print("|---|---|" + "---:|" * (2 * len(vars_) - 1))
for key in order:
    row = best[key]
    if not row:
        continue
    base = row.get(vars_[0])
    cells = [f"{row[v]:.4f}" if v in row else "-" for v in vars_]
    ratios = [f"{row[v] / base:.3f}" if base and v in row else "-" for v in vars_[1:]]
    print(f"| {key[0]} | {key[1]} | " + " | ".join(cells) + " | " + " | ".join(ratios) + " |")
