#!/usr/bin/env bash
# 18: the final build: the multisplit tests; pairs by BITS into 16 and 32 buckets, Auto
# (staged) against the Onesweep split, two rounds.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
R=/tmp/r18; rm -rf $R; mkdir -p $R
VKALGO_TEST_NO_VALIDATION=1 timeout 300 .vx/split-tests > $R/tests.txt 2>&1; echo "tests rc $?"
for r in 1 2; do
  timeout 100 .vx/bench-new multisplit --sizes 24,26 --ms 16,32 --types pairs --fns bits --paths auto,onesweep --reps 20 > $R/p-bits-$r.txt 2>&1
done
tar -czf $OUT/r18.tar.gz -C /tmp r18
grep "test result" $R/tests.txt
for f in $R/p-*; do echo "== $(basename $f)"; grep -E "^\| pairs" $f | awk -F'|' '{printf "%s%s%s%s %s %s; ", $3, $4, $5, $6, $7, $11}'; echo; done
