#!/usr/bin/env bash
# 7: set operations timed with freshly allocated scratch buffers (VX_SCRATCH_TRIES, an
# experiment hook in bench-try, f262e18's kernels): does the scratch's placement decide the
# slow processes?
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
R=/tmp/r7; rm -rf $R; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
for r in 1 2 3; do
 VX_SCRATCH_TRIES=12 timeout 100 .vx/bench-try merge --sizes none --set-sizes 24 --ops and,or --reps 20 > $R/tries-$r.txt 2>&1
done
tar -czf $OUT/r7.tar.gz -C /tmp r7
cat $R/gpu.txt
for f in $R/tries-*; do echo "== $f"; grep "^TRY" $f | awk -F'\t' '{printf "%s/%s %s %s; ", substr($2,5,3), $4, $5, $7}'; echo; done
