#!/usr/bin/env bash
# 19: pairs by IDS on the staged path with per-subgroup starts (VX_IDS_POS) and each first-tile
# order (VX_FIRST_ORDER) against without (its order ZeroLoad); base again at the end.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
R=/tmp/r19; rm -rf $R; mkdir -p $R
B=.vx/bench-exp
A="multisplit --sizes 24,26 --ms 4,8,16,32 --types pairs --fns ids --paths staged --reps 20"
timeout 100 $B $A > $R/base.txt 2>&1
VX_IDS_POS=1 timeout 100 $B $A > $R/pos.txt 2>&1
for o in 0 1 2; do VX_IDS_POS=1 VX_FIRST_ORDER=$o timeout 100 $B $A > $R/pos-order-$o.txt 2>&1; done
timeout 100 $B $A > $R/base-b.txt 2>&1
tar -czf $OUT/r19.tar.gz -C /tmp r19
for f in $R/*; do echo "== $(basename $f)"; grep -E "^\| pairs" $f | awk -F'|' '{printf "%s%s %s %s; ", $5, $6, $7, $11}'; echo; done
