#!/usr/bin/env bash
# Slow processes: 24 processes of a build that reports each set operation's look-back
# fallbacks, then again after idle, a small allocation, a large one and an upload into it
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
R=/tmp/r9; mkdir -p $R
for p in $(seq 1 24); do
  echo "== process $p" >> $R/times.txt
  timeout 100 .vx/bench-fb merge --sizes none --set-sizes 24 --reps 20 --ops and,andnot,xor >> $R/times.txt 2>&1
done
tar -czf $OUT/r9.tar.gz -C /tmp r9
grep -E "^== process|^EXP" $R/times.txt
