#!/usr/bin/env bash
set -u
tar -xJf .var/clock.tar.xz
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
for w in 512 1024; do
VKALGO_SORT_CLOCK=1 VKALGO_EXP_CLOCK=1 VKALGO_EXP_UPDATE_WG=$w timeout 90 .vx/bench-clock set --cases clustered,sparse --reps 3 > $OUT/clock-$w.txt 2>&1
echo "== wg $w"; grep -E "^CLOCK|rror|panic" $OUT/clock-$w.txt
done
