#!/usr/bin/env bash
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
R=/tmp/r58; mkdir -p $R
timeout 120 .vx/bench-exp set --reps 10 --cases full --pass-times > $R/passes.txt 2>&1
for round in 1 2; do
  for v in 16384:16384 4096:16384 1024:16384 256:16384 256:8192 256:4096; do
    g0=${v%:*}; g2=${v#*:}
    VKALGO_EXP_BITMAPS_GRID0=$g0 VKALGO_EXP_BITMAPS_GRID2=$g2 timeout 120 .vx/bench-exp set --reps 10 --cases full > $R/s${g0}c${g2}-$round.txt 2>&1
  done
done
grep -h "panicked\|rror" $R/*.txt | head
VARS="s16384c16384 s4096c16384 s1024c16384 s256c16384 s256c8192 s256c4096" python3 .vx/cmp.py $R/s*-[12].txt
grep -A40 "set_and " $R/passes.txt | head -60
tar -czf $OUT/r58.tar.gz -C /tmp r58
