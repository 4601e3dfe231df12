#!/usr/bin/env bash
# Slow processes: do they run fewer set-operation workgroups at once? 24 processes of a probe
# build whose look-back kernel counts its resident workgroups (the most at once per batch)
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
R=/tmp/r12; mkdir -p $R
for p in $(seq 1 24); do
  echo "== process $p" >> $R/times.txt
  timeout 100 .vx/bench-occ merge --sizes none --set-sizes 24 --reps 20 --ops and,andnot,xor >> $R/times.txt 2>&1
done
tar -czf $OUT/r12.tar.gz -C /tmp r12
grep -E "^EXP" $R/times.txt | sed 's/.*most workgroups at once \([0-9]*\).*/\1/' | sort | uniq -c
awk '/^== process/{p=$3} /^EXP/{print "p" p ": " $0}' $R/times.txt | awk '{for(i=1;i<=NF;i++) if ($i=="median") m=$(i+1); lim = ($0 ~ /xor/) ? 0.163 : 0.153; if (m+0 > lim || $0 !~ /once 396/) print}'
