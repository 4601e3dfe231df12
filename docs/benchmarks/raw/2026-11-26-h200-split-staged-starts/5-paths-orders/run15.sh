#!/usr/bin/env bash
# 15: pairs, subgroup-staged against staged with per-subgroup starts (3-16 buckets); the staged
# path's first-tile order (VX_FIRST_ORDER) with per-subgroup starts.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
R=/tmp/r15; rm -rf $R; mkdir -p $R
B=.vx/bench-new
for r in 1 2; do
  timeout 100 $B multisplit --sizes 24,26 --ms 3,4,5,8,12,16 --types pairs --fns glsl,bits --paths substaged,staged --reps 20 > $R/p-paths-$r.txt 2>&1
done
for o in 0 1 2; do
  VX_FIRST_ORDER=$o timeout 100 $B multisplit --sizes 24,26 --ms 4,8,16,32 --types pairs --fns glsl,bits --paths staged --reps 20 > $R/p-order-$o.txt 2>&1
done
tar -czf $OUT/r15.tar.gz -C /tmp r15
for f in $R/*-*.txt; do echo "== $(basename $f)"; grep -E "^\| (pairs|keys) " $f | awk -F'|' '{printf "%s%s%s%s %s %s; ", $3, $4, $5, $6, $7, $11}'; echo; done
