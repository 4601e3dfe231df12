#!/usr/bin/env bash
# the scatter tests an item against the tile in 32 bits on every variant (ok32) against 7280e2f (head)
set -u
tar -xJf .var/exp.tar.xz
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
R=/tmp/r25; mkdir -p $R
run() { timeout 200 .vx/bench-$1 multisplit --sizes 24,26 --ms 2,3,8,16,32 --types keys,pairs --fns glsl,ids --paths auto --reps 20 > $R/ab-$1-$2.txt 2>&1; }
for r in 1 2; do for b in head ok32; do run $b $r; done; done
tar -czf $OUT/r25.tar.gz -C /tmp r25
for f in $R/ab-*; do echo "== $f"; grep -E "^\| (keys|pairs) +\| (glsl|ids)" $f | awk -F"|" "{printf \"%s%s%s %s %s; \", \$2, \$3, \$5, \$6, \$7}"; echo; done
