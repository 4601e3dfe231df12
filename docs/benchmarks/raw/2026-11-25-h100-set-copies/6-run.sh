#!/usr/bin/env bash
# The set benchmark with the final build (9ec2a5e: small_pairs.comp at 64 registers again).
set -u
tar -xJf .var/exp.tar.xz
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
mkdir -p /tmp/final
OUT=/tmp/final VKALGO_BENCH=.vx/bench-new SET_TESTS=.vx/set-tests timeout 520 bash bench/gpu_set.sh --reps 10 > /tmp/final/log.txt 2>&1; echo "gpu_set rc $?"
tar -czf $OUT/final.tar.gz -C /tmp final
grep "test result" /tmp/final/set_tests.txt
head -1 /tmp/final/croaring.txt
grep -E "clustered|sparse \| (cuda thrust)|set_(and|or|andnot|xor)(_reserved)? \| (sparse|dense) \| cuda (thrust|flat)" /tmp/final/table.md | head -60
