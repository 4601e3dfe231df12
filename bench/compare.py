#!/usr/bin/env python3
"""Compare benchmark RESULT lines from several implementations as a Markdown table.

Input lines (tab-separated, any other lines are ignored):

    RESULT <impl> <algo> <variant> <N> <median ms> <rate> <extra>

The rate is G elements/s for compute algorithms and GB/s (read + write) for copy
algorithms (algo names starting with "copy"). Every row is compared with the
reference implementation at the same algo and N: "cub" for compute algorithms
("thrust" where CUB has none: set operations), "cuda" for copies. Ratio = rate / reference rate, so above 1.00 is faster.

Usage: compare.py [FILE ...]     (no files, or "-": read stdin)
"""

import sys

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


def main(argv):
    results = {}
    paths = argv[1:] or ["-"]
    for path in paths:
        if path == "-":
            parse(sys.stdin, "<stdin>", results)
        else:
            with open(path, encoding="utf-8", errors="replace") as f:
                parse(f, path, results)
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


if __name__ == "__main__":
    sys.exit(main(sys.argv))
