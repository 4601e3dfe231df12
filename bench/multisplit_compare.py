#!/usr/bin/env python3
"""Multisplit comparison table from RESULT lines of bench/cuda/multisplit_bench.cu (impl cub)
and `vkalgo-bench multisplit` (impl vkalgo):

    RESULT <impl> multisplit_<keys|pairs>_m<m> <variant> <N> <ms> <G keys/s> <extra>
    RESULT vkalgo copy_keys compute <N> <ms> <GB/s> 0

For every (type, m, N): vkalgo's fastest GLSL row and fastest row of any bucket function,
CUB's reduced-bit sort and (m = 2) DevicePartition::If, the ratios (above 1.00: vkalgo is
faster; the issue's targets: >= 2.0 over the reduced-bit sort for m <= 256, >= 1.0 over the
partition at m = 2), and vkalgo's effective bandwidth (each element read and written once:
keys 8 B, pairs 16 B) as % of the compute-copy bandwidth of the same run.

Usage: multisplit_compare.py FILE...
"""

import re
import sys


def main(paths):
    rows = {}
    copy = {}
    for path in paths:
        with open(path) as f:
            for line in f:
                i = line.find("RESULT\t")
                if i < 0:
                    continue
                fields = line[i:].rstrip("\n").split("\t")
                if len(fields) < 7:
                    continue
                _, impl, algo, variant, n, ms, rate = fields[:7]
                if algo == "copy_keys":
                    copy[int(n)] = float(rate)
                    continue
                m = re.fullmatch(r"multisplit_(keys|pairs)_m(\d+)", algo)
                if not m:
                    continue
                key = (m.group(1), int(m.group(2)), int(n))
                rows.setdefault(key, []).append((impl, variant, float(ms), float(rate)))
    print("| type | m | N | vkalgo GLSL G keys/s | vkalgo best (variant) | CUB reduced-bit sort | x sort | "
          "CUB partition | x partition | vkalgo % copy |")
    print("|---|---:|---:|---:|---|---:|---:|---:|---:|---:|")
    for (kind, m, n), entries in sorted(rows.items()):
        def best(pred):
            found = [e for e in entries if pred(e)]
            return max(found, key=lambda e: e[3]) if found else None

        glsl = best(lambda e: e[0] == "vkalgo" and e[1].startswith("glsl"))
        top = best(lambda e: e[0] == "vkalgo" and not e[1].startswith("sort"))
        sort = best(lambda e: e[0] == "cub" and e[1] == "reduced_bit_sort")
        part = best(lambda e: e[0] == "cub" and e[1] == "partition_if")
        ref = glsl or top

        def rate(e):
            return f"{e[3]:.2f}" if e else "-"

        def ratio(a, b):
            return f"{a[3] / b[3]:.2f}" if a and b else "-"

        pct = "-"
        if ref and n in copy:
            gbs = ref[3] * (16 if kind == "pairs" else 8)
            pct = f"{100 * gbs / copy[n]:.1f}%"
        size = f"2^{n.bit_length() - 1}" if n & (n - 1) == 0 else str(n)
        top_text = f"{top[3]:.2f} ({top[1]})" if top else "-"
        print(f"| {kind} | {m} | {size} | {rate(glsl)} | {top_text} | {rate(sort)} | {ratio(ref, sort)} | "
              f"{rate(part)} | {ratio(ref, part)} | {pct} |")


if __name__ == "__main__":
    main(sys.argv[1:])
