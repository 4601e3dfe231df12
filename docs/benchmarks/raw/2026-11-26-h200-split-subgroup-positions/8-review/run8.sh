#!/usr/bin/env bash
# 8: review of this session's change: DOUBLE_BUFFERED_ROWS written from SUBGROUP_POSITIONS (new)
# against 2af0078 (fix); the multisplit tests.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
R=/tmp/r8; rm -rf $R; mkdir -p $R
VKALGO_TEST_NO_VALIDATION=1 timeout 250 .vx/split-tests > $R/tests.txt 2>&1; echo "tests rc $?"
for r in 1 2; do
  for b in fix new; do
    timeout 100 .vx/bench-$b multisplit --sizes 24,26 --ms 2,5,8,16 --types keys --fns glsl --paths auto --reps 20 > $R/k-$b-$r.txt 2>&1
    timeout 100 .vx/bench-$b multisplit --sizes 24,26 --ms 2 --types pairs --fns glsl --paths auto --reps 20 > $R/p-$b-$r.txt 2>&1
  done
done
tar -czf $OUT/r8.tar.gz -C /tmp r8
grep "test result" $R/tests.txt
for f in $R/[kp]-*; do echo "== $(basename $f)"; grep -E "^\| (keys|pairs) +\| glsl" $f | awk -F'|' '{printf "%s%s%s %s; ", $4, $5, $6, $7}'; echo; done
