#!/usr/bin/env bash
# 2a0cb42 on the GPU: the multisplit tests; the set operations' machine code (shader cache) and times
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
R=/tmp/r1; mkdir -p $R /tmp/gl
VKALGO_TEST_NO_VALIDATION=1 timeout 300 .vx/split-tests > $R/split-tests.txt 2>&1; echo "tests rc $?"
__GL_SHADER_DISK_CACHE_PATH=/tmp/gl __GL_SHADER_DISK_CACHE_SKIP_CLEANUP=1 VKALGO_PIPELINE_STATS=1 timeout 200 .vx/bench-head merge --sizes 23,26 --set-sizes 24 --reps 20 --pass-times > $R/merge.txt 2>&1
mkdir -p $R/cache; find /tmp/gl -name '*.bin' -exec cp {} $R/cache \;
tar -czf $OUT/r1.tar.gz -C /tmp r1
tail -3 $R/split-tests.txt
grep -E "^\|" $R/merge.txt | grep -v pass | head -40
