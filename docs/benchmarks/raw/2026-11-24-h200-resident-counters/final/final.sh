#!/usr/bin/env bash
# Final small-count table: scans and every key type's sort against CUB in one command.
set -uo pipefail
export OUT=${OUT:-/tmp/out}
SCAN_SIZES="10 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 28" SMALL_SIZES="14" \
  SORT_SIZES="10 11 12 13 14 16 18 20" TYPES="u32 i32 f32 pairs u64 i64 f64" bash bench/gpu_small_n.sh > $OUT/final1-log.txt 2>&1
tail -n 200 $OUT/small-n-table.md | grep -E "sort|scan" | awk -F'|' '{print $2,$3,$5,$6,$9}' | grep -v " - *$"
