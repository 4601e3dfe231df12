#!/usr/bin/env bash
# 12: merge keys with per-subgroup output stores (sg) and staged pairs with late value loads
# (late) against base (HEAD + the experiment switch off), two rounds.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
R=/tmp/r12; rm -rf $R; mkdir -p $R
for r in 1 2; do
  for b in base sg; do
    timeout 100 .vx/bench-$b merge --sizes 23,26 --set-sizes none --types keys --reps 20 > $R/m-$b-$r.txt 2>&1
  done
  for b in base late; do
    timeout 100 .vx/bench-$b multisplit --sizes 24,26 --ms 8,16,32 --types pairs --fns glsl,bits --paths staged --reps 20 > $R/p-$b-$r.txt 2>&1
  done
done
tar -czf $OUT/r12.tar.gz -C /tmp r12
for f in $R/m-*; do echo "== $(basename $f)"; grep -E "^\| merge_keys" $f | awk -F'|' '{printf "%s %s; ", $4, $5}'; echo; done
for f in $R/p-*; do echo "== $(basename $f)"; grep -E "^\| pairs" $f | awk -F'|' '{printf "%s%s%s %s %s; ", $3, $5, $6, $7, $11}'; echo; done
