#!/usr/bin/env bash
# 3: the final build (e1da3f4's code, 155fd93) against CUB's reduced-bit sort and
# DevicePartition::If; pass times of keys into 2, 16 and 32 buckets.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
R=/tmp/r3; rm -rf $R; mkdir -p $R/ms
MS="2 3 8 16 32 256 1024" VKALGO_BENCH=.vx/bench-new TESTS= OUT=$R/ms timeout 400 bash bench/gpu_multisplit.sh --reps 20 > $R/ms/log.txt 2>&1; echo "table rc $?" >> $R/ms/log.txt
timeout 60 .vx/bench-new multisplit --sizes 24,26 --ms 2,16,32 --types keys --fns glsl --paths auto --reps 20 --pass-times > $R/pass-times.txt 2>&1
tar -czf $OUT/r3.tar.gz -C /tmp r3
tail -1 $R/ms/log.txt; grep -A3 -E "^\| keys +\| glsl" $R/pass-times.txt | cut -c1-150 | head -30
cat $R/ms/multisplit-table.md | cut -c1-200 | tail -32
