#!/usr/bin/env bash
# The merge table with each program run in three processes (bench/gpu_merge.sh PROCESSES=3)
set -u
R=/tmp/r10; mkdir -p $R
OUT=$R/table PROCESSES=3 VKALGO_BENCH=.vx/bench SIZES="23 26" SET_SIZES="24" bash bench/gpu_merge.sh --reps 20 > $R/log.txt 2>&1
echo "rc $?"
tar -czf $OUT/r10.tar.gz -C /tmp r10
grep -E "^RESULT\s(vkalgo|thrust|cub)\s(set_|merge_)" $R/table/*.txt | awk -F'\t' '{print $2, $3, $5, $6}' | sort | awk '{k=$1" "$2" "$3; a[k]=a[k]" "$4} END{for (k in a) print k, a[k]}' | sort
cat $R/table/merge-table.md
