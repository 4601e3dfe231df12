#!/usr/bin/env python3
"""The one comparison script of the benchmarks: Markdown tables from the `RESULT` lines of
`vkalgo-bench` and of the CUDA baselines (bench/cuda), or from `vkalgo-bench --csv` files.

    RESULT <impl> <algo> <variant> <N> <median ms> <rate> <extra>

Usage:
    compare.py [FILE ...]                    every algorithm against its reference (below)
    compare.py ab --a FILE... --b FILE...    two builds: each row's median ms and B / A
    compare.py hash FILE...                  the hash map against the CUDA table and cuCollections
    compare.py join FILE...                  the join example against cuCollections (bench/gpu_join.sh)
    compare.py merge FILE...                 merges and set operations against CUB / Thrust
    compare.py multisplit FILE...            the multisplit against CUB's reduced-bit sort
    compare.py set CUDA VKALGO CROARING      the sets against the CUDA baselines and CRoaring

The default table: the rate is G elements/s for compute algorithms and GB/s (read + write) for
copy algorithms (algo names starting with "copy"). Every row is compared with the reference
implementation at the same algo and N: "cub" for compute algorithms ("thrust" where CUB has
none: set operations), "cuda" for copies. Ratio = rate / reference rate, so above 1.00 is
faster. No files, or "-": stdin.

hash: Hash-map benchmark comparison: vkalgo (`vkalgo-bench hash`) vs the linear-probing CUDA table
(bench/cuda/hash_bench.cu) and cuCollections (bench/cuda/cuco_bench.cu: static_map in both of its
configurations, the better one per row; insert_or_apply; static_multimap) from the same run.
Without cuco rows, quoted static_map figures measured on an H200 stand in (marked as quoted).
Fixed-load rows meet by operation and load (variant load<L>...), group-by and multimap rows by
operation and variant (distinct2^<d>, mult<m>); the N column names the other side's N where it
differs from vkalgo's (bench/gpu_hash.sh runs vkalgo on cuco_bench's workloads: `--log2cap`).

join: The join example (examples/hash_join.rs, `RESULT vkalgo join_<phase>` lines) against the same
join with cuCollections (bench/cuda/cuco_join.cu, `RESULT cuco join_<phase>`): per phase, both
sides' median ms and G rows/s and cuCo ms / vkalgo ms (above 1.00: vkalgo is faster), and whether
both sides joined the same tables into as many pairs (the extra field: pairs=<n>;tables=<checksum>).

merge: Merge benchmark table: vkalgo against CUB (merges) and Thrust (set operations).

Reads RESULT lines (tab-separated; other lines are ignored):

    RESULT <impl> <algo> <variant> <N> <median ms> <G elements/s> <bytes moved>

from bench/cuda/merge_bench.cu and `vkalgo-bench merge`. Copy lines (algo copy_u32x4, rate in
GB/s) give each implementation's copy bandwidth: the CUDA kernel's for cub/thrust rows, the
compute shader's for vkalgo rows. Every other row gets its GB/s (bytes moved / time), that as
% of its own copy bandwidth, and its rate as a ratio to the reference (cub, else thrust) at the
same algo and N (above 1.00: faster than the reference; vkalgo's set_*_csw rows, the
count-scan-write path, are compared with the same operation's reference).

A row measured several times (bench/gpu_merge.sh with PROCESSES > 1 runs each program in
several processes) keeps its fastest median, for CUB/Thrust and vkalgo alike, and the copy
bandwidth its fastest: on the H200 some vkalgo processes ran a set operation 5-69% slow for a
while: the same work at a lower SM clock, for many batches
(docs/benchmarks/2026-11-26-h200-setop-occupancy.md).

multisplit: Multisplit comparison table from RESULT lines of bench/cuda/multisplit_bench.cu (impl cub)
and `vkalgo-bench multisplit` (impl vkalgo):

    RESULT <impl> multisplit_<keys|pairs>_m<m> <variant> <N> <ms> <G keys/s> <extra>
    RESULT vkalgo copy_keys compute <N> <ms> <GB/s> 0

For every (type, m, N): vkalgo's fastest GLSL row and fastest row of any bucket function,
CUB's reduced-bit sort and (m = 2) DevicePartition::If, the ratios (above 1.00: vkalgo is
faster; the issue's targets: >= 2.0 over the reduced-bit sort for m <= 256, >= 1.0 over the
partition at m = 2), and vkalgo's effective bandwidth (each element read and written once:
keys 8 B, pairs 16 B) as % of the compute-copy bandwidth of the same run.
"""

import collections
import csv
import os
import re
import statistics
import sys

def read_lines(path):
    """The lines of a benchmark output file ("-": stdin); a CSV file of `vkalgo-bench --csv`
    (header impl,algo,variant,n,ms,rate,extra) is read as the RESULT lines it holds."""
    if path == "-":
        return list(sys.stdin)
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = f.readlines()
    except FileNotFoundError:
        return []
    if lines and lines[0].startswith("impl,algo,variant,"):
        return ["RESULT\t" + "\t".join(row) + "\n" for row in csv.reader(lines[1:])]
    return lines


# The default table.

# Reference implementation for each kind of algorithm, in order of preference.
REFERENCE_IMPLS = ("cub", "thrust", "cuda")


def parse(lines, source, results):
    """Adds {(algo, n, impl, variant): (ms, rate, extra)} entries from RESULT lines."""
    for lineno, line in enumerate(lines, 1):
        start = line.find("RESULT\t")
        if start < 0:
            continue
        fields = line[start:].rstrip("\r\n").split("\t")
        if len(fields) < 7:
            print(f"{source}:{lineno}: short RESULT line ignored", file=sys.stderr)
            continue
        _, impl, algo, variant, n, ms, rate = fields[:7]
        extra = fields[7] if len(fields) > 7 else ""
        try:
            key = (algo, int(n), impl, variant)
            value = (float(ms), float(rate), extra)
        except ValueError:
            print(f"{source}:{lineno}: malformed RESULT line ignored", file=sys.stderr)
            continue
        if key in results:
            print(f"{source}:{lineno}: duplicate {key}, keeping the later one", file=sys.stderr)
        results[key] = value


def size_label(n):
    if n > 0 and n & (n - 1) == 0:
        return f"2^{n.bit_length() - 1}"
    return str(n)


def fmt(value, spec):
    return "-" if value is None else format(value, spec)


def is_copy(algo):
    return algo.startswith("copy")


def impl_order(impl_variant):
    """Reference implementations first, then the rest alphabetically."""
    impl, variant = impl_variant
    rank = REFERENCE_IMPLS.index(impl) if impl in REFERENCE_IMPLS else len(REFERENCE_IMPLS)
    return (rank, impl, variant)


def reference_rate(results, algo, n):
    for ref in REFERENCE_IMPLS:
        rates = [v[1] for (a, m, i, _), v in results.items() if a == algo and m == n and i == ref]
        if rates:
            return ref, max(rates)
    return None, None


def table(results, algos, copy):
    """Markdown table over the given algos; every impl/variant seen for an algo gets a row per N."""
    rate_head = "GB/s (r+w)" if copy else "G elem/s"
    out = [
        f"| algo | N | impl | variant | ms | {rate_head} | vs ref |",
        "|---|---:|---|---|---:|---:|---:|",
    ]
    for algo in algos:
        sizes = sorted({n for (a, n, _, _) in results if a == algo})
        combos = sorted({(i, v) for (a, _, i, v) in results if a == algo}, key=impl_order)
        for n in sizes:
            ref_impl, ref_rate = reference_rate(results, algo, n)
            for impl, variant in combos:
                entry = results.get((algo, n, impl, variant))
                ms, rate = (entry[0], entry[1]) if entry else (None, None)
                ratio = rate / ref_rate if rate is not None and ref_rate else None
                out.append(
                    f"| {algo} | {size_label(n)} | {impl} | {variant} | {fmt(ms, '.4f')} "
                    f"| {fmt(rate, '.2f')} | {fmt(ratio, '.2f')} |"
                )
    return "\n".join(out)


def generic_main(paths):
    results = {}
    paths = paths or ["-"]
    for path in paths:
        parse(read_lines(path), path, results)
    if not results:
        print("no RESULT lines found", file=sys.stderr)
        return 1

    algos = sorted({a for (a, _, _, _) in results})
    compute = [a for a in algos if not is_copy(a)]
    copies = [a for a in algos if is_copy(a)]

    if compute:
        print("### Algorithms (ratio = G elem/s / cub G elem/s at the same N)\n")
        print(table(results, compute, copy=False))
        print()
    if copies:
        print("### Copy bandwidth (ratio = GB/s / cuda kernel GB/s at the same N)\n")
        print(table(results, copies, copy=True))
        print()
    return 0


# compare.py ab

def ab_main(a_paths, b_paths):
    """A/B of two builds (bench/gpu_ab.sh): every RESULT row with each build's median ms and
    the ratio B / A."""
    rows = collections.OrderedDict()
    for who, paths in (("A", a_paths), ("B", b_paths)):
        for path in paths:
            if not os.path.exists(path):
                continue
            for line in read_lines(path):
                if not line.startswith("RESULT\t"):
                    continue
                f = line.rstrip("\n").split("\t")
                if len(f) < 6:
                    continue
                key = (f[2], f[3], f[4])
                rows.setdefault(key, {"A": [], "B": []})[who].append(float(f[5]))
    print("| algorithm | variant | N | A ms (median) | B ms (median) | B / A | runs |")
    print("|---|---|---|---:|---:|---:|---|")
    ratios = []
    for (alg, variant, n), t in rows.items():
        if not t["A"] or not t["B"]:
            continue
        ma, mb = statistics.median(t["A"]), statistics.median(t["B"])
        r = mb / ma if ma > 0 else float("nan")
        ratios.append(r)
        print(f"| {alg} | {variant} | {n} | {ma:.4f} | {mb:.4f} | {r:.3f} | {len(t['A'])}+{len(t['B'])} |")
    if ratios:
        g = statistics.geometric_mean([r for r in ratios if r > 0])
        print(f"\n{len(ratios)} rows; B / A geometric mean {g:.4f}, min {min(ratios):.3f}, max {max(ratios):.3f}")
    return 0


# compare.py hash

# cuCollections static_map on an H200, u32 keys and values, 2^26 keys (issue 4).
CUCO = {
    ("insert", "0.5"): 14.6,
    ("find_hit", "0.5"): 27.8,
    ("find_miss", "0.5"): 30.0,
    ("insert", "0.8"): 12.7,
    ("find_hit", "0.8"): 20.3,
}


def hash_parse(paths):
    rows = []
    for path in paths:
        for line in read_lines(path):
            start = line.find("RESULT\t")
            if start < 0:
                continue
            fields = line[start:].rstrip("\r\n").split("\t")
            if len(fields) < 7:
                continue
            _, impl, algo, variant, n, ms, rate = fields[:7]
            try:
                rows.append((impl, algo, variant, int(n), float(ms), float(rate)))
            except ValueError:
                pass
    return rows


def split_variant(variant):
    """'load0.5_256x1_unpacked' -> ('0.5', '256x1_unpacked'); 'load0.5' -> ('0.5', '')."""
    head, _, rest = variant.partition("_")
    return head[len("load"):], rest


def natural(text):
    """Sort key of a variant with numbers in it: distinct2^4 before distinct2^14."""
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", text)]


def n_cell(n, **others):
    """vkalgo's N, with each other side's where it differs (a ratio of unlike workloads)."""
    differ = [f"{name} {m}" for name, m in others.items() if m is not None and m != n]
    return f"{n} ({', '.join(differ)})" if differ else str(n)


def hash_main(paths):
    rows = hash_parse(paths)
    vk = {}
    lp = {}
    measured = {}
    measured_n = {}
    lp_n = {}
    vk_other = {}
    for impl, algo, variant, n, ms, rate in rows:
        if not algo.startswith("hash_") or algo.startswith("hash_sweep") or variant.endswith("sweep"):
            continue
        op = algo[len("hash_"):-len("_u32")]
        if impl.startswith("cuco_"):
            # cuCollections measured in this run: its best configuration per operation.
            key = (op, variant)
            if rate > measured.get(key, 0.0):
                measured[key] = rate
                measured_n[key] = n
            continue
        if not variant.startswith("load"):
            # Group-by (distinct2^d) and multimap (mult<m>) rows: their own table below.
            if impl == "vkalgo":
                vk_other[(op, variant)] = (rate, n)
            continue
        load, tuning = split_variant(variant)
        if impl == "vkalgo":
            vk[(op, load, tuning)] = (rate, n)
        elif impl == "cuda_lp":
            lp[(op, load)] = rate
            lp_n[(op, load)] = n
    cuco = {(op, v[len("load"):]): r for (op, v), r in measured.items() if v.startswith("load")} or CUCO
    cuco_n = {(op, v[len("load"):]): n for (op, v), n in measured_n.items() if v.startswith("load")}
    source = "this run, best config" if measured else "H200 anchor, quoted"
    print("### Operations at fixed load (G keys/s; ratio = vkalgo / other)\n")
    print("N: vkalgo's keys, with LP's and cuCo's where they differ (`vkalgo-bench hash --log2cap C` runs cuco_bench's")
    print("`map C L` workload: L * 2^C keys in a map of 2^C slots).\n")
    print(f"| op | load | N | vkalgo variant | vkalgo | linear probing (this run) | vs LP | cuCo ({source}) | vs cuCo |")
    print("|---|---|---:|---|---:|---:|---:|---:|---:|")
    for (op, load, tuning), (rate, n) in sorted(vk.items(), key=lambda kv: (kv[0][1], kv[0][0], kv[0][2])):
        other = lp.get((op, load))
        anchor = cuco.get((op, load))
        print(
            f"| {op} | {load} | {n_cell(n, LP=lp_n.get((op, load)), cuCo=cuco_n.get((op, load)))} | {tuning} | {rate:.2f} | "
            + (f"{other:.2f} | {rate / other:.2f}x | " if other else "- | - | ")
            + (f"{anchor:.1f} | {rate / anchor:.2f}x |" if anchor else "- | - |")
        )

    sweep_vk = [(v, r) for i, a, v, n, ms, r in rows if i == "vkalgo" and a == "hash_sweep_insert_u32"]
    sweep_lp = [(v, r) for i, a, v, n, ms, r in rows if i == "cuda_lp" and a == "hash_sweep_insert_u32"]
    if sweep_vk or sweep_lp:
        print("\n### Load sweep: insert throughput per batch (G keys/s)\n")
        print("| batch | vkalgo loads | vkalgo | LP loads | linear probing | vkalgo / LP |")
        print("|---:|---|---:|---|---:|---:|")
        for b in range(max(len(sweep_vk), len(sweep_lp))):
            a = sweep_vk[b] if b < len(sweep_vk) else ("-", None)
            c = sweep_lp[b] if b < len(sweep_lp) else ("-", None)
            ratio = f"{a[1] / c[1]:.1f}x" if a[1] and c[1] else "-"
            fa = f"{a[1]:.2f}" if a[1] is not None else "-"
            fc = f"{c[1]:.2f}" if c[1] is not None else "-"
            print(f"| {b} | {a[0]} | {fa} | {c[0]} | {fc} | {ratio} |")
    band = {i: r for i, a, v, n, ms, r in rows if a == "hash_sweep_band_u32"}
    sweep_find = {i: (v, r) for i, a, v, n, ms, r in rows if a == "hash_find_hit_u32" and v.endswith("sweep")}
    print("\n### Summary\n")
    print("| measure | vkalgo | linear probing | ratio | target |")
    print("|---|---:|---:|---:|---|")
    if "vkalgo" in band and "cuda_lp" in band:
        r = band["vkalgo"] / band["cuda_lp"]
        print(f"| insert, loads 0.90 -> 0.95 | {band['vkalgo']:.3f} | {band['cuda_lp']:.3f} | {r:.1f}x | >= 10x |")
    if "vkalgo" in sweep_find and "cuda_lp" in sweep_find:
        a, c = sweep_find["vkalgo"][1], sweep_find["cuda_lp"][1]
        print(f"| find hits at load 0.95 | {a:.2f} | {c:.2f} | {a / c:.2f}x | - |")
    for (op, load), anchor in sorted(cuco.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        best = max((r for (o, l, t), (r, n) in vk.items() if o == op and l == load), default=None)
        if best is not None:
            print(f"| {op} at {load}, best variant vs cuCo {anchor:.2f} | {best:.2f} | - | {best / anchor:.2f}x | >= 1.0x |")
    # Group-by and multimap rows (variant = distinct2^d / mult<m>): vkalgo against cuco.
    other_ops = sorted({(op, v) for (op, v) in measured if not v.startswith("load")} | set(vk_other))
    if other_ops:
        print("\n### Group-by and multimap (G keys/s; ratio = vkalgo / cuCo's best)\n")
        print("| op | variant | N | vkalgo | cuCo | ratio |")
        print("|---|---|---:|---:|---:|---:|")
        for op, variant in sorted(other_ops, key=lambda k: (k[0], natural(k[1]))):
            c = measured.get((op, variant))
            v, n = vk_other.get((op, variant), (None, measured_n.get((op, variant))))
            print(f"| {op} | {variant} | {n_cell(n, cuCo=measured_n.get((op, variant)))} | "
                  + (f"{v:.2f}" if v else "-") + " | " + (f"{c:.2f}" if c else "-") + " | "
                  + (f"{v / c:.2f}x" if v and c else "-") + " |")


# compare.py join

JOIN_PHASES = ("build", "count", "retrieve", "groupby", "total")


def join_main(paths):
    rows = {}
    for path in paths:
        for line in read_lines(path):
            start = line.find("RESULT\t")
            fields = line[start:].rstrip("\r\n").split("\t") if start >= 0 else []
            if len(fields) < 8 or not fields[2].startswith("join_"):
                continue
            _, impl, algo, variant, n, ms, rate, extra = fields[:8]
            side = "cuco" if impl.startswith("cuco") else impl
            try:
                rows[(variant, side, algo[len("join_"):])] = (int(n), float(ms), float(rate), extra)
            except ValueError:
                pass
    for variant in sorted({v for v, _, _ in rows}):
        extras = {side: r[3] for (v, side, _), r in rows.items() if v == variant}
        same = len(set(extras.values())) == 1 and set(extras) == {"vkalgo", "cuco"}
        print(f"### Join {variant} (ratio = cuCo ms / vkalgo ms: above 1.00, vkalgo is faster)\n")
        print("| phase | N | vkalgo ms | cuCo ms | vkalgo G rows/s | cuCo G rows/s | ratio |")
        print("|---|---:|---:|---:|---:|---:|---:|")
        for phase in JOIN_PHASES:
            vk, cu = rows.get((variant, "vkalgo", phase)), rows.get((variant, "cuco", phase))
            if not vk and not cu:
                continue
            n = (vk or cu)[0]
            cell = lambda r, i, f: f"{r[i]:{f}}" if r else "-"
            ratio = f"{cu[1] / vk[1]:.2f}x" if vk and cu and vk[1] > 0 else "-"
            print(f"| {phase} | {n} | {cell(vk, 1, '.3f')} | {cell(cu, 1, '.3f')} | "
                  f"{cell(vk, 2, '.3f')} | {cell(cu, 2, '.3f')} | {ratio} |")
        print("\nBoth retrieves write the joined pairs: vkalgo's R's payloads with S's as its tags, cuCo's")
        print("pair_retrieve both payloads.")
        print("total: the join (vkalgo build to pairs, cuCo build to retrieve), the group-by apart.")
        verdict = "yes" if same else "NO: " + ", ".join(f"{k} {v}" for k, v in sorted(extras.items()))
        print(f"Same tables and pairs on both sides: {verdict}\n")
    return 0


# compare.py merge

REFERENCES = ("cub", "thrust")


def merge_main(paths):
    rows = {}
    runs = {}
    copy = {}
    for path in paths:
        for line in read_lines(path):
            start = line.find("RESULT\t")
            if start < 0:
                continue
            fields = line[start:].rstrip("\r\n").split("\t")
            if len(fields) < 8:
                continue
            _, impl, algo, variant, n, ms, rate, extra = fields[:8]
            try:
                n, ms, rate, extra = int(n), float(ms), float(rate), float(extra)
            except ValueError:
                continue
            if algo == "copy_u32x4":
                side = "vkalgo" if impl == "vkalgo" else "cuda"
                copy[side] = max(copy.get(side, 0.0), rate)
            if algo.startswith("copy"):
                continue
            key = (algo, n, impl, variant)
            runs[key] = runs.get(key, 0) + 1
            if key not in rows or ms < rows[key][0]:
                rows[key] = (ms, rate, extra)
    if not rows:
        print("no RESULT lines found", file=sys.stderr)
        return 1
    print(f"copy bandwidth: CUDA kernel {copy.get('cuda', 0):.0f} GB/s, "
          f"vkalgo compute shader {copy.get('vkalgo', 0):.0f} GB/s")
    fewest, most = min(runs.values()), max(runs.values())
    if most > 1:
        count = most if fewest == most else f"{fewest}-{most}"
        print(f"each row: the fastest of its {count} measurements (one a process)")
    print()
    print("| algo | A + B | impl | variant | ms | G elem/s | GB/s | % of copy | vs ref |")
    print("|---|---:|---|---|---:|---:|---:|---:|---:|")
    for algo in sorted({k[0] for k in rows}):
        for n in sorted({k[1] for k in rows if k[0] == algo}):
            ref = None
            base = algo[:-4] if algo.endswith("_csw") else algo  # count-scan-write rows
            for r in REFERENCES:
                rates = [v[1] for k, v in rows.items() if k[0] == base and k[1] == n and k[2] == r]
                if rates:
                    ref = max(rates)
                    break
            keys = sorted((k for k in rows if k[0] == algo and k[1] == n),
                          key=lambda k: (k[2] not in REFERENCES, k[2], k[3]))
            for key in keys:
                ms, rate, extra = rows[key]
                gbs = extra / (ms * 1e-3) / 1e9
                own = copy.get("vkalgo" if key[2] == "vkalgo" else "cuda")
                pct = f"{100 * gbs / own:.0f}%" if own else "-"
                ratio = f"{rate / ref:.2f}" if ref else "-"
                half = n // 2
                size = f"2^{half.bit_length() - 1} + 2^{half.bit_length() - 1}" if half & (half - 1) == 0 else str(n)
                print(f"| {algo} | {size} | {key[2]} | {key[3]} | {ms:.4f} | {rate:.1f} | {gbs:.0f} | {pct} | {ratio} |")
    return 0


# compare.py multisplit

def multisplit_main(paths):
    rows = {}
    copy = {}
    for path in paths:
        for line in read_lines(path):
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


# compare.py set

def set_load(path):
    """RESULT rows by (name, case); a row given several times (CRoaring in several processes,
    bench/gpu_set.sh) keeps its fastest (smallest ms)."""
    rows = {}
    try:
        for line in read_lines(path):
            p = line.rstrip("\n").split("\t")
            if len(p) >= 6 and p[0] == "RESULT":
                key = (p[2], p[3])
                if key not in rows or float(p[5]) < float(rows[key][5]):
                    rows[key] = p
    except FileNotFoundError:
        pass
    return rows


def set_main(paths):
    """The set benchmark: vkalgo against the CUDA baselines (set_bench.cu) and CRoaring
    (croaring_set.py); paths: cuda.txt vkalgo.txt croaring.txt."""
    cuda, vk, cr = (set_load(p) for p in (list(paths) + ["", "", ""])[:3])
    print("| vkalgo | case | vkalgo ms | baseline | baseline ms | speedup |")
    print("|---|---|---|---|---|---|")
    pairs = [
        ("set_and", "sparse", cuda, "thrust_set_intersection", "sparse"),
        ("set_or", "sparse", cuda, "thrust_set_union", "sparse"),
        ("set_andnot", "sparse", cuda, "thrust_set_difference", "sparse"),
        ("set_build_sorted", "sparse", cuda, "array_to_flat_bitmap", "sparse"),
        ("set_to_array", "sparse", cuda, "flat_bitmap_to_array", "sparse"),
        ("set_and", "sparse", cuda, "flat_and", "sparse"),
        ("set_or", "sparse", cuda, "flat_or", "sparse"),
        ("set_and", "dense", cuda, "flat_and", "sparse"),
        ("set_or", "dense", cuda, "flat_or", "sparse"),
        ("set_and_reserved", "sparse", cuda, "thrust_set_intersection", "sparse"),
        ("set_or_reserved", "sparse", cuda, "thrust_set_union", "sparse"),
        ("set_andnot_reserved", "sparse", cuda, "thrust_set_difference", "sparse"),
    ]
    # Every chunk a bitmap (`full`: the flat bitmaps' size) against the flat 2^32-bit bitmaps.
    for op in ["and", "or", "andnot", "xor"]:
        pairs.append(("set_" + op, "full", cuda, "flat_" + op, "sparse"))
        pairs.append(("set_" + op + "_reserved", "full", cuda, "flat_" + op, "sparse"))
    for case in ["sparse", "dense", "clustered"]:
        for op in ["build_sorted", "and", "or", "andnot", "xor", "and_cardinality", "or_cardinality",
                   "andnot_cardinality", "xor_cardinality", "contains", "to_array", "cardinality",
                   "range_cardinality"]:
            pairs.append(("set_" + op, case, cr, "set_" + op, case))
            if op == "cardinality":  # the host call, against the same CRoaring row
                pairs.append(("set_cardinality_host", case, cr, "set_cardinality", case))
                pairs.append(("set_cardinality_host_counted", case, cr, "set_cardinality", case))
            if op in ("and", "or", "andnot", "xor"):
                pairs.append(("set_" + op + "_reserved", case, cr, "set_" + op, case))
    for name, case, base, bname, bcase in pairs:
        v = vk.get((name, case))
        b = base.get((bname, bcase))
        if v and b:
            label = ("croaring " if base is cr else "cuda ") + bname
            vm, bm = float(v[5]), float(b[5])
            print(f"| {name} | {case} | {vm:.4f} | {label} | {bm:.4f} | {bm / vm:.2f}x |")
    print()
    full = [(k[0], v) for k, v in vk.items() if k[1] == "full" and "copyBW" in v[7]]
    if full:
        print("| vkalgo, every chunk a bitmap | ms | share of the copy bandwidth (bitmap bytes) |")
        print("|---|---|---|")
        for name, v in sorted(full):
            print(f"| {name} | {float(v[5]):.4f} | {v[7].split('%')[0]}% |")
        print()
    # Memory: each vkalgo set against its own Roaring portable serialization (what CRoaring writes
    # for the same values after run_optimize: run containers where smaller), and per value against
    # CRoaring's serialization of its own draw (Python's generator, same distributions).
    print("| case | vkalgo memory | Roaring serialization of the same set | memory / serialization | per value, against CRoaring's draw |")
    print("|---|---|---|---|---|")
    for case in ["sparse", "dense", "clustered"]:
        v = vk.get(("set_memory_ratio", case))
        m = vk.get(("set_memory_bytes", case))
        c = cr.get(("set_serialized_bytes", case))
        if v and m:
            mem = int(m[7])
            cols = [f"{mem} bytes", f"{v[7]} bytes", f"{float(v[6]):.3f}x"]
            if c:
                runs = int(c[7].split("run_optimized=")[1]) if "run_optimized=" in c[7] else int(c[7].split(",")[0])
                cols.append(f"{(mem / int(v[4])) / (runs / int(c[4])):.3f}x ({runs} bytes for {c[4]} values)")
            else:
                cols.append("-")
            print(f"| {case} | " + " | ".join(cols) + " |")
            pv = vk.get(("set_memory_packed_ratio", case))
            pm = vk.get(("set_memory_packed_bytes", case))
            if pv and pm:
                print(f"| {case}, packed (GpuSet::pack) | {int(pm[7])} bytes | {pv[7]} bytes | {float(pv[6]):.3f}x | - |")
    return 0


def main(argv):
    args = argv[1:]
    kinds = {"hash": hash_main, "join": join_main, "merge": merge_main, "multisplit": multisplit_main, "set": set_main}
    if args and args[0] == "ab":
        a, b, side = [], [], None
        for arg in args[1:]:
            if arg in ("--a", "--b"):
                side = a if arg == "--a" else b
            elif side is not None:
                side.append(arg)
        return ab_main(a, b)
    if args and args[0] in kinds:
        return kinds[args[0]](args[1:])
    return generic_main(args)


if __name__ == "__main__":
    sys.exit(main(sys.argv) or 0)
