#!/usr/bin/env bash
# 8: after 2.5 s idle and the copy warm-up, set operations timed in 24 consecutive batches
# (VX_IDLE_PROBE, bench-try): a slow state the copy warm-up misses?
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
R=/tmp/r8; rm -rf $R; mkdir -p $R
for r in 1 2; do
 VX_IDLE_PROBE=1 timeout 120 .vx/bench-try merge --sizes none --set-sizes 24 --ops and,or --reps 20 > $R/idle-$r.txt 2>&1
done
tar -czf $OUT/r8.tar.gz -C /tmp r8
for f in $R/idle-*; do echo "== $f"; grep -E "^IDLE|^\| set" $f | cut -c1-260; done
