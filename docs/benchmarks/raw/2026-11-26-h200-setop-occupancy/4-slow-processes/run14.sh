#!/usr/bin/env bash
# Slow processes: where does a slow batch's time go? 24 processes of a probe build whose
# look-back kernel sums the SM clock cycles and device-clock nanoseconds of each workgroup (VK_KHR_shader_clock)
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
R=/tmp/r14; mkdir -p $R
for p in $(seq 1 24); do
  echo "== process $p" >> $R/times.txt
  VKALGO_SORT_CLOCK=1 timeout 100 .vx/bench-clock merge --sizes none --set-sizes 24 --reps 20 --ops and,andnot,xor >> $R/times.txt 2>&1
done
tar -czf $OUT/r14.tar.gz -C /tmp r14
awk '/^== process/{p=$3} /^EXP/{for(i=1;i<=NF;i++) if ($i=="median") m=$(i+1); lim = ($0 ~ /xor/) ? 0.163 : 0.153; if (m+0 > lim) print "SLOW p" p ": " $0}' $R/times.txt
awk '/^EXP/{for(i=1;i<=NF;i++) if ($i=="median") m=$(i+1); lim = ($0 ~ /xor/) ? 0.163 : 0.153; if (m+0 <= lim) n++; if (n % 20 == 1 && m+0 <= lim) print "normal: " $0}' $R/times.txt | head -8
