#!/usr/bin/env bash
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
mkdir -p $OUT/r6
VKALGO_TEST_NO_VALIDATION=1 timeout 150 .vx/set-tests --test-threads 1 > $OUT/r6/set-tests.txt 2>&1; echo "set tests rc $?"
for r in 1 2 3; do for b in new3 filter; do
  VKALGO_PIPELINE_STATS=1 timeout 200 .vx/bench-$b set --log2n 24 --cases sparse,dense,clustered --reps 10 > $OUT/r6/$b-$r.txt 2>&1
done; done
for r in 1 2 3; do for b in new3 filter; do echo "== $b $r"; grep -E "^(filter|contains)" $OUT/r6/$b-$r.txt | awk '{print $1, substr($2,1,1), $4}' | paste -sd' ' ; done; done
grep "test result" $OUT/r6/set-tests.txt
grep -h "set_filter" $OUT/r6/new3-1.txt $OUT/r6/filter-1.txt | grep statistics
