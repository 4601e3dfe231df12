#!/usr/bin/env bash
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
R=$OUT/r79; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
C=clustered,sparse,dense
for v in 256:4096 64:4096 128:4096 128:8192 64:16384 256:4096; do
  w=${v%%:*}; g=${v##*:}
  VKALGO_EXP_TO_ARRAY_WG=$w VKALGO_EXP_TO_ARRAY_GRID=$g timeout 100 .vx/bench-wg set --cases $C --reps 10 > $R/wg$w-g$g-$RANDOM.txt 2>&1; echo "$v rc $?"
done
for f in $R/*.txt; do echo "$(basename $f): $(grep -E '^(to_array) ' $f | awk '{print substr($2,1,2), $4}' | tr '\n' ';')"; done
