#!/usr/bin/env bash
# Baseline set-operation times and the driver's machine code of the set-operation and small-pair pipelines
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
R=/tmp/r1; mkdir -p $R /tmp/gl /tmp/gl2
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
__GL_SHADER_DISK_CACHE_PATH=/tmp/gl __GL_SHADER_DISK_CACHE_SKIP_CLEANUP=1 VKALGO_PIPELINE_STATS=1 timeout 200 .vx/bench merge --sizes 24 --set-sizes 24 --reps 20 --pass-times > $R/merge.txt 2>&1
__GL_SHADER_DISK_CACHE_PATH=/tmp/gl2 __GL_SHADER_DISK_CACHE_SKIP_CLEANUP=1 VKALGO_PIPELINE_STATS=1 timeout 200 .vx/bench set --log2n 24 --cases sparse --reps 10 --pass-times > $R/set.txt 2>&1
mkdir -p $R/cache $R/cache2; find /tmp/gl -name '*.bin' -exec cp {} $R/cache \; ; find /tmp/gl2 -name '*.bin' -exec cp {} $R/cache2 \;
tar -czf $OUT/r1.tar.gz -C /tmp r1
cat $R/gpu.txt; grep -E "^\|" $R/merge.txt | head -30; grep -E "^\|" $R/set.txt | head -30
