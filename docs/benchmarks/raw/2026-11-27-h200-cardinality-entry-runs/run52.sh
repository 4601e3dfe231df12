#!/usr/bin/env bash
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
R=/tmp/r52; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for round in 1 2; do
  for v in 512:256 256:256 128:256 128:512 1024:256; do
    w=${v%:*}; g=${v#*:}
    VKALGO_EXP_ONE_PASS_WG=$w VKALGO_EXP_ONE_PASS_GRID=$g timeout 100 .vx/bench-exp set --log2n 24 --reps 10 --cases clustered > $R/w${w}g${g}-$round.txt 2>&1
  done
done
grep -h "panicked\|rror" $R/*-[12].txt | head
VARS="w512g256 w256g256 w128g256 w128g512 w1024g256" python3 .vx/cmp.py $R/*-[12].txt | grep -i "card"
tar -czf $OUT/r52.tar.gz -C /tmp r52
