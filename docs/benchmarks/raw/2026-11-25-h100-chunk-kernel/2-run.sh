#!/usr/bin/env bash
set -u
tar -xJf .var/exp.tar.xz
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
for v in base n512 n1024; do
  b=.vx/bench-new; [ $v = base ] && b=.vx/bench-base
  w=${v#n}; [ $v = base ] && w=1024
  VKALGO_PIPELINE_STATS=1 VKALGO_EXP_UPDATE_WG=$w timeout 60 $b set --cases clustered --reps 3 > $OUT/stats-$v.txt 2>&1
  echo "== $v"; grep -i "chunk_update\|array_pairs_medium\|small_pairs\|bitmap_pairs" $OUT/stats-$v.txt | grep -iv "pass " | cut -c1-400
done
