#!/usr/bin/env bash
# 1: owed checks (split tests on 31a13f0; Auto for keys by IDS; 31a13f0 against f68996e) and
# the set operations' compaction before the look-back (bench-exp) against 31a13f0.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
R=/tmp/r1; rm -rf $R; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
VKALGO_TEST_NO_VALIDATION=1 timeout 200 .vx/split-tests --test-threads 1 > $R/split-tests.txt 2>&1; echo "split tests rc $?" >> $R/split-tests.txt
VKALGO_TEST_NO_VALIDATION=1 timeout 120 .vx/merge-tests-exp --test-threads 1 set_ops > $R/merge-tests-exp.txt 2>&1; echo "merge tests rc $?" >> $R/merge-tests-exp.txt
for r in 1 2; do
 for b in old new; do
  timeout 150 .vx/bench-$b multisplit --sizes 24,26 --ms 2,3,5,8,24,32 --types keys,pairs --fns glsl,ids --paths auto --reps 20 > $R/split-$b-$r.txt 2>&1
 done
 for b in new exp; do
  timeout 60 .vx/bench-$b merge --sizes none --set-sizes 20,24 --reps 20 > $R/set-$b-$r.txt 2>&1
 done
done
timeout 60 .vx/bench-new multisplit --sizes 24,26 --ms 20,24,28,32 --types keys --fns ids --paths direct,staged --reps 20 > $R/ids-paths.txt 2>&1
tar -czf $OUT/r1.tar.gz -C /tmp r1
cat $R/gpu.txt; tail -3 $R/split-tests.txt; tail -3 $R/merge-tests-exp.txt
for f in $R/split-*-?.txt $R/ids-paths.txt; do echo "== $f"; grep -E "^\| (keys|pairs) " $f | awk -F'|' '{gsub(/ /,"",$0); printf "%s/%s/%s/%s/%s=%s ", substr($2,1,1), $3, $4, $5, $6, $7}'; echo; done
for f in $R/set-*; do echo "== $f"; grep -E "^\| set" $f | awk -F'|' '{gsub(/ /,"",$0); printf "%s/%s=%s ", $2, $4, $5}'; echo; done
