#!/usr/bin/env bash
# multisplit count pass: whole tiles without per-element checks (fast) against 684af86 (base)
set -u
tar -xJf .var/exp.tar.xz
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
R=/tmp/r20; mkdir -p $R
for b in base fast; do VKALGO_PIPELINE_STATS=1 timeout 60 .vx/bench-$b multisplit --sizes 20 --ms 2,8 --fns glsl --paths auto --reps 2 2>&1 | grep -i "pipeline statistics" | sort -u > $R/stats-$b.txt; done
run() { timeout 200 .vx/bench-$1 multisplit --sizes 24,26 --ms 2,3,8 --types keys,pairs --fns glsl --paths auto --reps 20 --pass-times > $R/ab-$1-$2.txt 2>&1; }
for r in 1 2; do for b in base fast; do run $b $r; done; done
tar -czf $OUT/r20.tar.gz -C /tmp r20
grep -h tile_count $R/stats-*.txt | cut -c1-150
for f in $R/ab-*; do echo "== $f"; grep -E "^\| (keys|pairs) " $f | awk -F'|' '{printf "%s m%s %s %s; ", $2, $5, $6, $7}'; echo; grep -E "tile_count" $f | awk -F'|' '{printf "%s ", $4}'; echo; done
