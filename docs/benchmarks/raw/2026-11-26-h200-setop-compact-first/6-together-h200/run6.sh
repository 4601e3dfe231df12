#!/usr/bin/env bash
# 6 (a repeat of command 5, hoping for an H200): f262e18 (bench-head: both tiles compacted together where they fit) against 155fd93
# (bench-base), three rounds; set-operation tile shapes with f262e18; the set-operation tests;
# the merge and set table against CUB and Thrust.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
R=/tmp/r6; rm -rf $R; mkdir -p $R/table
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
VKALGO_TEST_NO_VALIDATION=1 timeout 100 .vx/merge-tests --test-threads 1 set_ops > $R/merge-tests.txt 2>&1; echo "merge tests rc $?" >> $R/merge-tests.txt
for r in 1 2 3; do
 for b in base head; do
  timeout 60 .vx/bench-$b merge --sizes none --set-sizes 20,24 --reps 20 > $R/set-$b-$r.txt 2>&1
 done
done
OUT=$R/table VKALGO_BENCH=.vx/bench-head SIZES="23 26" SET_SIZES="24" timeout 250 bash bench/gpu_merge.sh --reps 20 > $R/table/log.txt 2>&1; echo "table rc $?" >> $R/table/log.txt
tar -czf $OUT/r6.tar.gz -C /tmp r6
cat $R/gpu.txt; tail -3 $R/merge-tests.txt
for f in $R/set-* $R/tunings.txt; do echo "== $f"; grep -E "^\| set" $f | awk -F'|' '{gsub(/ /,"",$0); printf "%s/%s/%s=%s ", $2, $3, $4, $5}'; echo; done
tail -1 $R/table/log.txt; tail -18 $R/table/merge-table.md
