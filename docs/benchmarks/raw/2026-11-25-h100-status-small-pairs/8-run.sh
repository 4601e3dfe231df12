#!/usr/bin/env bash
# Merge and sorted-array set-operation tile shapes on the H100 (build d8ed1c1).
set -u
tar -xJf .var/exp.tar.xz
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
R=/tmp/r8; mkdir -p $R
timeout 150 .vx/bench merge --sizes 23,26 --set-sizes '' --reps 20 --tuning 512x7,256x11,512x9,512x5,256x15,1024x5 > $R/merge.txt 2>&1
timeout 150 .vx/bench merge --sizes '' --set-sizes 24 --reps 20 --ops and,or --tuning 256x15,256x11,256x13,256x19,512x7,512x9,128x23 > $R/sets.txt 2>&1
tar -czf $OUT/r8.tar.gz -C /tmp r8
grep -E "^\| " $R/merge.txt | grep -v "^| *-" | cut -c1-150 | head -40
grep -E "^\| " $R/sets.txt | cut -c1-150 | head -30
