#!/usr/bin/env bash
# 2: 155fd93 (head): the split test cut off in command 1, the set-operation tests; 155fd93
# against f68996e (keys into 2, 3, 5 direct; pairs into 2; set operations), two rounds; the
# merge and set table against CUB and Thrust.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
R=/tmp/r2; rm -rf $R; mkdir -p $R
VKALGO_TEST_NO_VALIDATION=1 timeout 200 .vx/split-tests --test-threads 1 subgroup_staged_tile_path > $R/split-tests.txt 2>&1; echo "split tests rc $?" >> $R/split-tests.txt
VKALGO_TEST_NO_VALIDATION=1 timeout 100 .vx/merge-tests --test-threads 1 set_ops > $R/merge-tests.txt 2>&1; echo "merge tests rc $?" >> $R/merge-tests.txt
for r in 1 2; do
 for b in old new; do
  timeout 60 .vx/bench-$b multisplit --sizes 24,26 --ms 2,3,5 --types keys,pairs --fns glsl --paths auto --reps 20 > $R/split-$b-$r.txt 2>&1
  timeout 60 .vx/bench-$b merge --sizes none --set-sizes 24 --reps 20 > $R/set-$b-$r.txt 2>&1
 done
done
mkdir -p $R/table
OUT=$R/table VKALGO_BENCH=.vx/bench-new SIZES="23 26" SET_SIZES="24" timeout 250 bash bench/gpu_merge.sh --reps 20 > $R/table/log.txt 2>&1; echo "table rc $?" >> $R/table/log.txt
tar -czf $OUT/r2.tar.gz -C /tmp r2
tail -2 $R/split-tests.txt; tail -3 $R/merge-tests.txt
for f in $R/split-*-?.txt; do echo "== $f"; grep -E "^\| (keys|pairs) " $f | grep -v sort_topbits | awk -F'|' '{gsub(/ /,"",$0); printf "%s/%s/%s/%s/%s=%s ", substr($2,1,1), $3, $4, $5, $6, $7}'; echo; done
for f in $R/set-*; do echo "== $f"; grep -E "^\| set" $f | awk -F'|' '{gsub(/ /,"",$0); printf "%s/%s=%s ", $2, $4, $5}'; echo; done
tail -1 $R/table/log.txt; cat $R/table/merge-table.md 2>/dev/null | tail -25
