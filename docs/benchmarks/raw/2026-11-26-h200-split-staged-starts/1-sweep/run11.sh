#!/usr/bin/env bash
# 11: pairs into 16 / 32 buckets and keys into 32: tile items and paths, pass times.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
R=/tmp/r11; rm -rf $R; mkdir -p $R
B=.vx/bench-head
for it in 0 6 12 16; do
  timeout 100 $B multisplit --sizes 24,26 --ms 16,32 --types pairs --fns glsl --paths staged --reps 20 --tile-items $it > $R/p-staged-$it.txt 2>&1
done
timeout 100 $B multisplit --sizes 24,26 --ms 16,32 --types pairs --fns glsl --paths auto,substaged,onesweep --reps 20 --pass-times > $R/p-auto-pass.txt 2>&1
timeout 100 $B multisplit --sizes 24,26 --ms 8,32 --types keys --fns glsl --paths auto,onesweep --reps 20 --pass-times > $R/k-pass.txt 2>&1
for it in 8 16; do
  timeout 100 $B multisplit --sizes 24,26 --ms 32 --types keys --fns glsl --paths substaged --reps 20 --tile-items $it > $R/k-sub-$it.txt 2>&1
done
tar -czf $OUT/r11.tar.gz -C /tmp r11
for f in $R/*; do echo "== $(basename $f)"; grep -E "^\| (keys|pairs) " $f | awk -F'|' '{printf "%s%s%s %s; ", $4, $5, $6, $7}'; echo; done
