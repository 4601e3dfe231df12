#!/usr/bin/env bash
# new: register-counter tile variants without the counter zeroing and its two barriers; against head
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
R=/tmp/r3; mkdir -p $R
VKALGO_TEST_NO_VALIDATION=1 timeout 300 .vx/split-tests > $R/tests-new.txt 2>&1; echo "tests rc $?"
run() { timeout 200 .vx/bench-$1 multisplit --sizes 24,26 --ms $3 --types $4 --fns $5 --paths auto --reps 20 --pass-times > $R/ab-$1$6-$2.txt 2>&1; }
for r in 1 2; do
  for b in head new; do
    run $b $r 2,3,5,8,16,32 keys glsl -k
    run $b $r 2,3,5,8,16,32 pairs glsl -p
    run $b $r 8,16,32 pairs bits,ids -pb
  done
done
tar -czf $OUT/r3.tar.gz -C /tmp r3
