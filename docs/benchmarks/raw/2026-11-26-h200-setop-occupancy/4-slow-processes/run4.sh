#!/usr/bin/env bash
# Slow processes: eight processes of the same build, set operations timed pass by pass
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
R=/tmp/r4; mkdir -p $R
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv -lms 100 > $R/clocks.csv 2>&1 &
SMI=$!
for p in 1 2 3 4 5 6 7 8; do
  echo "== process $p $(date +%T.%N)" >> $R/times.txt
  timeout 100 .vx/bench merge --sizes none --set-sizes 24 --reps 20 --pass-times >> $R/times.txt 2>&1
  echo "== end $p $(date +%T.%N)" >> $R/times.txt
done
kill $SMI
tar -czf $OUT/r4.tar.gz -C /tmp r4
grep -E "^== process|^\| set_|pass \| merge" $R/times.txt | awk '/^== process/{print; n=0; next} n<12 {print; n++}'
