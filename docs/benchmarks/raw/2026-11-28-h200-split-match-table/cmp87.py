#!/usr/bin/env python3
"""Command 87: fastest time per row and variant (ms-<var>-<round>.txt), on/off ratios."""
import sys, glob, os, collections
best = collections.defaultdict(dict); order = []
for path in sorted(glob.glob(os.path.join(sys.argv[1], "ms-*.txt"))):
    var = os.path.basename(path).split("-")[1]
    for line in open(path, errors="replace"):
        f = line.rstrip("\n").split("\t")
        if len(f) < 7 or f[0] != "RESULT" or not f[2].startswith("multisplit"):
            continue
        key = (f[2], f[3], f[4])
        ms = float(f[5])
        if key not in best: order.append(key)
        if var not in best[key] or ms < best[key][var]: best[key][var] = ms
print("| row | fn | n | off | on | on/off |")
for k in order:
    r = best[k]
    if "off" in r and "1" in r:
        print(f"| {k[0]} | {k[1]} | {k[2]} | {r['off']:.4f} | {r['1']:.4f} | {r['1']/r['off']:.3f} |")
