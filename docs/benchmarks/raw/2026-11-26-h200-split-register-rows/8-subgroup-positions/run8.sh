#!/usr/bin/env bash
# new: subgroup positions on the direct keys path (plan bit 22), against head (f5bec68)
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
R=/tmp/r8; mkdir -p $R
VKALGO_TEST_NO_VALIDATION=1 timeout 300 .vx/split-tests > $R/tests-new.txt 2>&1; echo "tests rc $?"
run() { timeout 200 .vx/bench-$1 multisplit --sizes 24,26 --ms 2,3,4,5,6,7 --types keys --fns glsl,bits,ids --paths auto --reps 20 > $R/ab-$1-$2.txt 2>&1; }
for r in 1 2; do
  for b in head new; do run $b $r; done
done
tar -czf $OUT/r8.tar.gz -C /tmp r8
tail -3 $R/tests-new.txt
for f in $R/ab-*; do echo "== $(basename $f)"; grep -E "^\| keys +\| (glsl|bits|ids)" $f | awk -F'|' '{printf "%s%s %s %s; ", $3, $5, $6, $7}'; echo; done
