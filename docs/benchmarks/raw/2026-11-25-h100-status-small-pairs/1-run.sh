#!/usr/bin/env bash
# Baseline of 5d13b7a on the H100: merge and sorted-array set operations against CUB/Thrust,
# multisplit against CUB's reduced-bit sort and DevicePartition, per-pass times.
set -u
tar -xJf .var/exp.tar.xz
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
mkdir -p /tmp/r/merge /tmp/r/split
OUT=/tmp/r/merge VKALGO_BENCH=.vx/bench-base SIZES="23 26" SET_SIZES="24" timeout 200 bash bench/gpu_merge.sh --reps 20 --pass-times > /tmp/r/merge/log.txt 2>&1; echo "merge rc $?"
OUT=/tmp/r/split VKALGO_BENCH=.vx/bench-base TESTS= SIZES="24 26" MS="2 3 8 32 256" timeout 300 bash bench/gpu_multisplit.sh --reps 20 --pass-times > /tmp/r/split/log.txt 2>&1; echo "split rc $?"
tar -czf $OUT/r.tar.gz -C /tmp r
cat /tmp/r/merge/merge-table.md
cat /tmp/r/split/multisplit-table.md
