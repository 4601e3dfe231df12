#!/usr/bin/env bash
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
mkdir -p $OUT/r5
VKALGO_TEST_NO_VALIDATION=1 timeout 150 .vx/set-tests --test-threads 1 > $OUT/r5/set-tests.txt 2>&1; echo "set tests rc $?"
for r in 1 2; do for b in base new2 new3; do
  timeout 200 .vx/bench-$b set --log2n 24 --cases sparse,clustered --reps 10 > $OUT/r5/$b-$r.txt 2>&1
done; done
OUT=$OUT/r5/set VKALGO_BENCH=.vx/bench-new3 SET_TESTS=/nonexistent SET_CASES=sparse,dense,clustered timeout 400 bash bench/gpu_set.sh --reps 10 > $OUT/r5/gpu_set.log 2>&1; echo "gpu_set rc $?"
for r in 1 2; do for b in base new2 new3; do echo "== $b $r"; grep -E "^(and|or|andnot|xor)" $OUT/r5/$b-$r.txt | grep -v cardinality | awk '{print $1, substr($2,1,1), $4}' | paste -sd' ' ; done; done
grep "test result" $OUT/r5/set-tests.txt
grep -E "thrust|clustered" $OUT/r5/set/table.md | grep -v "contains\|to_array\|build"
