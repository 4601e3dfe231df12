#!/usr/bin/env bash
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
mkdir -p /tmp/gl $OUT/r1
__GL_SHADER_DISK_CACHE_PATH=/tmp/gl __GL_SHADER_DISK_CACHE_SKIP_CLEANUP=1 VKALGO_PIPELINE_STATS=1 timeout 200 .vx/bench-base set --log2n 24 --cases sparse --reps 10 --pass-times > $OUT/r1/set.txt 2>&1
find /tmp/gl -name '*.bin' -exec cp {} $OUT/r1/ \;
grep -E "^(and|or|andnot|xor|build)" $OUT/r1/set.txt
