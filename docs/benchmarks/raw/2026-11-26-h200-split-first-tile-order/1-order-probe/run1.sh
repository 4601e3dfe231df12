#!/usr/bin/env bash
# pairs into 8: the one-tile path in f83a8b7's order (v2) against HEAD and f83a8b7; keys
# subgroup-staged tiles a workgroup (t2, t8 against v2's 4) and items (12, 16)
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
R=/tmp/r1; mkdir -p $R
for b in f83 head v2; do VKALGO_PIPELINE_STATS=1 timeout 60 .vx/bench-$b multisplit --sizes 24 --ms 2,8,32 --types keys,pairs --fns glsl --paths auto --reps 2 2>&1 | grep -i "pipeline statistics" | grep split | sort -u > $R/stats-$b.txt; done
VKALGO_TEST_NO_VALIDATION=1 timeout 300 .vx/split-tests > $R/tests-v2.txt 2>&1; echo "tests rc $?"
run() { timeout 200 .vx/bench-$1 multisplit --sizes 24,26 --ms $3 --types $4 --fns glsl --paths auto --reps 20 --pass-times $5 > $R/ab-$1$6-$2.txt 2>&1; }
for r in 1 2; do
  for b in f83 head v2; do run $b $r 2,3,8,16,32 keys,pairs "" ""; done
  for b in t2 t8; do run $b $r 8,16,32 keys "" ""; done
  run v2 $r 8,16,32 keys "--tile-items 12" -i12
  run v2 $r 8,16,32 keys "--tile-items 16" -i16
done
tar -czf $OUT/r1.tar.gz -C /tmp r1
tail -3 $R/tests-v2.txt
for b in f83 head v2; do echo "== $b"; grep tile_scatter $R/stats-$b.txt | cut -c1-110; done
for f in $R/ab-*; do echo "== $(basename $f)"; grep -E "^\| (keys|pairs) +\| glsl" $f | awk -F'|' '{printf "%s%s %s %s; ", $2, $5, $6, $7}'; echo; done
