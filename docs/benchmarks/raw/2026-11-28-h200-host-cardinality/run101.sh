#!/usr/bin/env bash
# Look-ahead walks (one key ahead per side) in the set operations and the keys merge: base
# (a8d0b55 = HEAD's src) against exp, alternating processes
set -u
for f in .gl/*.deb; do dpkg -x $f / >/dev/null; done; ldconfig
R=/tmp/r101; mkdir -p $R
A="merge --sizes 23,26 --set-sizes 24 --types keys --ops and,or,andnot,xor --reps 20"
for r in 1 2 3; do
  for b in base exp; do
    echo "== $b $r" >> $R/t.txt
    timeout 150 .vx/m101/bench-$b $A >> $R/t.txt 2>&1
  done
done
tar -czf $OUT/r101.tar.gz -C /tmp r101
grep -E "^== |^RESULT" $R/t.txt | awk -F'\t' '/^==/{h=$0; next}{printf "%s\t%s\t%s\t%s\n", h, $3, $5, $6}'
