#!/usr/bin/env bash
# new (all four kernels), new2 (copies as before), new3 (small pairs only) against base (684af86)
set -u
tar -xJf .var/exp.tar.xz
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
R=/tmp/r18; mkdir -p $R
run() { timeout 100 .vx/bench-$1 set --cases clustered,sparse --reps 10 --pass-times > $R/ab-$1-$2.txt 2>&1; }
for r in 1 2; do for b in base new new2 new3; do run $b $r; done; done
tar -czf $OUT/r18.tar.gz -C /tmp r18
for f in $R/ab-*; do echo "== $f"; grep -E "^(and|or|andnot|xor)_reserved +(sparse|clustered)" $f | awk '{print $1, $2, $4}' | paste -sd' ' ; done
