#!/usr/bin/env bash
# Is the lower-clock state the look-back's? 24 processes, each op on the look-back path and on
# the count-scan-write path (no inter-workgroup waiting)
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
R=/tmp/r16; mkdir -p $R
for p in $(seq 1 24); do
  echo "# process $p" >> $R/times.txt
  timeout 100 .vx/bench merge --sizes none --set-sizes 24 --reps 20 --ops and,andnot,xor --set-paths lookback,csw >> $R/times.txt 2>&1
done
tar -czf $OUT/r16.tar.gz -C /tmp r16
grep "^RESULT" $R/times.txt | awk -F'\t' '{print $3, $6}' | sort | awk '{k=$1; v=$2+0; n[k]++; if (!(k in mn) || v<mn[k]) mn[k]=v; if (v>mx[k]) mx[k]=v; s[k]+=v; if (v > 1.05*0) a[k]=a[k]" "sprintf("%.4f",v)} END{for (k in n) printf "%s n=%d min %.4f max %.4f mean %.4f\n", k, n[k], mn[k], mx[k], s[k]/n[k]}' | sort
grep "^RESULT" $R/times.txt | awk -F'\t' '{print $3, $6}' > $R/rows.txt
