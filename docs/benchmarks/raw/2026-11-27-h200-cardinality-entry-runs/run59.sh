#!/usr/bin/env bash
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
R=$OUT/r59; mkdir -p $R
for v in 16384:16384 2048:16384 256:16384 256:4096; do
  g0=${v%:*}; g2=${v#*:}
  s=$(date +%s)
  VKALGO_EXP_BITMAPS_GRID0=$g0 VKALGO_EXP_BITMAPS_GRID2=$g2 timeout 110 .vx/bench-exp set --reps 10 --cases full > $R/s${g0}c${g2}-1.txt 2>&1
  echo "$v $(( $(date +%s) - s )) s"
done
grep -h "panicked\|rror" $R/*.txt | head
VARS="s16384c16384 s2048c16384 s256c16384 s256c4096" python3 .vx/cmp.py $R/s*-1.txt
