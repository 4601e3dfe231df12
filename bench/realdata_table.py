#!/usr/bin/env python3
"""The real-data table: CRoaring ms / vkalgo ms per class and dataset, for vkalgo's GPU time
(recorded work between timestamps) and its wall clock (blocking host calls), and whether the
two sides' result digests agree.

Usage: realdata_table.py VKALGO_OUTPUT CROARING_OUTPUT (the outputs of `vkalgo-bench realdata`
and bench/realdata_croaring.py). Prints a Markdown table; exits 1 when a digest differs.
"""
import sys
from collections import defaultdict


def parse(path):
    times, digests = {}, {}
    for line in open(path):
        f = line.rstrip("\n").split("\t")
        if f[0] == "RESULT" and f[2].startswith("realdata_"):
            times[(f[2][len("realdata_"):], f[3], f[7])] = float(f[5])
        elif f[0] == "DIGEST":
            digests[(f[3], f[2])] = f[4]
    return times, digests


def main():
    vk, vk_digests = parse(sys.argv[1])
    cr, cr_digests = parse(sys.argv[2])
    classes, datasets = [], []
    for (cls, ds, _) in cr:
        if cls not in classes:
            classes.append(cls)
        if ds not in datasets:
            datasets.append(ds)
    bad = []
    print("| class | timing | " + " | ".join(datasets) + " |")
    print("|---|---|" + "---:|" * len(datasets))
    for cls in classes:
        # vkalgo's variants of a class (`<class>_<variant>`) against the same CRoaring times.
        variants = sorted({v for (v, _, _) in vk if v.startswith(cls + "_") and v not in classes})
        for name in [cls] + variants:
            for timing in ("gpu", "wall"):
                cells = []
                for ds in datasets:
                    c, v = cr.get((cls, ds, "cpu")), vk.get((name, ds, timing))
                    cells.append(f"{c / v:.3g}x" if c and v else "-")
                if any(x != "-" for x in cells):
                    print(f"| {name} | {timing} | " + " | ".join(cells) + " |")
    for key, d in cr_digests.items():
        if vk_digests.get(key) != d:
            bad.append(f"{key}: croaring {d}, vkalgo {vk_digests.get(key)}")
    agreed = sum(1 for k in cr_digests if vk_digests.get(k) == cr_digests[k])
    print(f"\nDigests: {agreed} of {len(cr_digests)} classes x datasets agree byte for byte.")
    for b in bad:
        print("DIFFERS:", b)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
