#!/bin/bash
. bench/gpu_setup.sh >/dev/null 2>&1
cd .vx && for f in *.xz; do xz -d "$f"; done; chmod +x bench-*; cd ..
VKALGO_BENCH=.vx/bench-new SIZES="20 23 26" SET_SIZES="20 24" bash bench/gpu_merge.sh --reps 20 > $OUT/log.txt 2>&1
echo rc=$?
cat $OUT/merge-table.md
