#!/usr/bin/env bash
# Occupancy elasticity of the set-operation kernel: base (3 workgroups/SM) against a padded
# build (2 workgroups/SM), tile shapes at equal occupancy; SM clocks logged beside
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
R=/tmp/r2; mkdir -p $R
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu,clocks_throttle_reasons.active --format=csv -lms 200 > $R/clocks.csv 2>&1 &
SMI=$!
A="merge --sizes none --set-sizes 24 --ops and,or --reps 20"
for r in 1 2; do
  for b in bench bench-pad; do
    echo "== $b round $r" >> $R/times.txt
    VKALGO_PIPELINE_STATS=1 timeout 100 .vx/$b $A >> $R/times.txt 2>&1
  done
  echo "== tunings round $r" >> $R/times.txt
  timeout 150 .vx/bench $A --tuning 256x11,256x13,256x15 >> $R/times.txt 2>&1
done
kill $SMI
tar -czf $OUT/r2.tar.gz -C /tmp r2
grep -E "^== |^\| set_|Register Count" $R/times.txt | grep -v "^RESULT" | sed 's/Binary Size.*Shared/Shared/' | sort -u -k1,1 | head -0
grep -E "^== |^\| set_|merge_setop.*Register" $R/times.txt | sed 's/; Binary Size=[0-9]*; Stack Size=0; Local Memory Size=[0-9]*//'
