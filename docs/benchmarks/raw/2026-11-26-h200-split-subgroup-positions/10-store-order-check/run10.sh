#!/usr/bin/env bash
# 10: the store order chosen per bucket count (new: shuffles first from 8 buckets) against
# `helper` (24af701: shuffles first everywhere); the multisplit tests.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
R=/tmp/r10; rm -rf $R; mkdir -p $R
VKALGO_TEST_NO_VALIDATION=1 timeout 250 .vx/split-tests > $R/tests.txt 2>&1; echo "tests rc $?"
for r in 1 2; do
  for b in helper new; do
    timeout 100 .vx/bench-$b multisplit --sizes 24,26 --ms 5,7,8,10 --types keys --fns glsl --paths auto --reps 20 > $R/k-$b-$r.txt 2>&1
  done
done
tar -czf $OUT/r10.tar.gz -C /tmp r10
grep "test result" $R/tests.txt
for f in $R/k-*; do echo "== $(basename $f)"; grep -E "^\| keys +\| glsl" $f | awk -F'|' '{printf "%s%s %s; ", $5, $6, $7}'; echo; done
