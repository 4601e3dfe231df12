#!/usr/bin/env bash
# multisplit count pass: fast (register form), fast2 (and the shared form) against 684af86 (base)
set -u
tar -xJf .var/exp.tar.xz
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
R=/tmp/r21; mkdir -p $R
run() { timeout 200 .vx/bench-$1 multisplit --sizes 24,26 --ms 2,16,32 --types keys,pairs --fns glsl --paths auto --reps 20 --pass-times > $R/ab-$1-$2.txt 2>&1; }
for r in 1 2; do for b in base fast fast2; do run $b $r; done; done
tar -czf $OUT/r21.tar.gz -C /tmp r21
for f in $R/ab-*; do echo "== $f"; grep -E "^\| (keys|pairs) +\| glsl" $f | awk -F'|' '{printf "%s m%s %s %s; ", $2, $5, $6, $7}'; echo; grep -E "tile_count" $f | awk -F'|' '{printf "%s ", $4}'; echo; done
