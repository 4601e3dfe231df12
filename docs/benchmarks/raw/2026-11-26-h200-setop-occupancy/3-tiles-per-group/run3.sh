#!/usr/bin/env bash
# Set operations: one or two tiles a workgroup (VKALGO_EXP_TPG) across tile shapes, with the
# driver's registers and shared memory per pipeline
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
R=/tmp/r3; mkdir -p $R
A="merge --sizes none --set-sizes 24 --ops and,or --reps 20 --tuning 256x7,256x9,256x11,256x13,256x15,128x15,128x11"
for r in 1 2; do
  for t in 2 1; do
    echo "== tpg $t round $r" >> $R/times.txt
    VKALGO_EXP_TPG=$t VKALGO_PIPELINE_STATS=1 timeout 200 .vx/bench-tpg $A >> $R/times.txt 2>&1
  done
done
tar -czf $OUT/r3.tar.gz -C /tmp r3
grep -E "^== |^\| set_" $R/times.txt | awk '!seen[$0]++ || /^==/'
grep -E "merge_setop_lookback.*Register" $R/times.txt | sed 's/; Binary Size=[0-9]*; Stack Size=0; Local Memory Size=687194767/ L/' | sort -u
