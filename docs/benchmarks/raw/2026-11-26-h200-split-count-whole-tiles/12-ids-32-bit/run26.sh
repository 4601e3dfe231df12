#!/usr/bin/env bash
# IDS: items tested against the tile in 32 bits on every path (idsok) against 7280e2f (head)
set -u
tar -xJf .var/exp.tar.xz
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
R=/tmp/r26; mkdir -p $R
run() { timeout 200 .vx/bench-$1 multisplit --sizes 24,26 --ms 2,3,8,32 --types keys,pairs --fns ids,glsl --paths auto --reps 20 > $R/ab-$1-$2.txt 2>&1; }
for r in 1 2; do for b in head idsok; do run $b $r; done; done
tar -czf $OUT/r26.tar.gz -C /tmp r26
for f in $R/ab-*; do echo "== $f"; grep -E "^\| (keys|pairs) +\| (glsl|ids)" $f | awk -F"|" "{printf \"%s%s%s%s %s; \", \$2, \$3, \$5, \$6, \$7}"; echo; done
