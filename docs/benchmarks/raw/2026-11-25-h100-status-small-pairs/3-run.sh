#!/usr/bin/env bash
# Shader cache of the pf build's sparse set operations (machine code of small_pairs).
set -u
tar -xJf .var/exp.tar.xz
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
mkdir -p /tmp/gl /tmp/r3
__GL_SHADER_DISK_CACHE_PATH=/tmp/gl __GL_SHADER_DISK_CACHE_SKIP_CLEANUP=1 VKALGO_PIPELINE_STATS=1 timeout 100 .vx/bench-pf set --cases sparse --reps 1 > /tmp/r3/bench.txt 2>&1
find /tmp/gl -name '*.bin' -exec cp {} /tmp/r3 \;
tar -czf $OUT/r3.tar.gz -C /tmp r3
ls -la /tmp/r3; grep "pipeline statistics" /tmp/r3/bench.txt | cut -c1-150
