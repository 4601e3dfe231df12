#!/usr/bin/env bash
# 20: the final build (070cb3c): the multisplit tests; pairs by IDS and BITS with Auto.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
R=/tmp/r20; rm -rf $R; mkdir -p $R
VKALGO_TEST_NO_VALIDATION=1 timeout 300 .vx/split-tests > $R/tests.txt 2>&1; echo "tests rc $?"
timeout 100 .vx/bench-new multisplit --sizes 24,26 --ms 4,8,16,32 --types pairs --fns ids,bits,glsl --paths auto --reps 20 > $R/p-auto.txt 2>&1
tar -czf $OUT/r20.tar.gz -C /tmp r20
grep "test result" $R/tests.txt
grep -E "^\| pairs" $R/p-auto.txt | awk -F'|' '{printf "%s%s%s%s %s %s; ", $3, $4, $5, $6, $7, $11}'; echo
