#!/usr/bin/env bash
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
R=$OUT/r75; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
C=clustered,sparse,dense
timeout 150 .vx/bench-diag set --cases $C --reps 10 --pass-times > $R/flat.txt 2>&1; echo "flat rc $?"
timeout 150 .vx/bench-diag set --cases $C --reps 10 --pass-times --packed > $R/packed.txt 2>&1; echo "packed rc $?"
for f in flat packed; do echo "== $f"; grep -E "pass \||^(contains|filter|to_array|and_reserved|and_cardinality|or_reserved) " $R/$f.txt | tail -90; done
