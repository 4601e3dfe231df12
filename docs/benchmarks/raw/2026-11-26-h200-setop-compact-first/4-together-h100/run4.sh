#!/usr/bin/env bash
# 4: set operations, both tiles' kept keys compacted together before the look-back where they
# fit (bench-exp: VX_TOGETHER) against 155fd93 (bench-new), three rounds; the set-operation
# tests with it.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
R=/tmp/r4; rm -rf $R; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
VKALGO_TEST_NO_VALIDATION=1 timeout 100 .vx/merge-tests-exp --test-threads 1 set_ops > $R/merge-tests-exp.txt 2>&1; echo "merge tests rc $?" >> $R/merge-tests-exp.txt
for r in 1 2 3; do
 for b in new exp; do
  timeout 60 .vx/bench-$b merge --sizes none --set-sizes 20,24 --reps 20 > $R/set-$b-$r.txt 2>&1
 done
done
tar -czf $OUT/r4.tar.gz -C /tmp r4
cat $R/gpu.txt; tail -3 $R/merge-tests-exp.txt
for f in $R/set-*; do echo "== $f"; grep -E "^\| set" $f | awk -F'|' '{gsub(/ /,"",$0); printf "%s/%s=%s ", $2, $4, $5}'; echo; done
