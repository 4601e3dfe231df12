#!/usr/bin/env bash
# Does the multisplit show the slow processes? Six processes of the same multisplit benchmark
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
R=/tmp/r11; mkdir -p $R
for p in 1 2 3 4 5 6; do
  echo "# process $p" >> $R/ms.txt
  timeout 120 .vx/bench multisplit --sizes 24,26 --ms 2,8,32,256 --types keys,pairs --fns glsl --paths auto --reps 20 >> $R/ms.txt 2>&1
done
tar -czf $OUT/r11.tar.gz -C /tmp r11
grep -E "^RESULT" $R/ms.txt | awk -F'\t' '{k=$3" "$4" "$5; a[k]=a[k]" "$6} END{for (k in a) print k, a[k]}' | sort
