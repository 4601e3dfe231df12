#!/usr/bin/env bash
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
mkdir -p $OUT/r3
for r in 1 2; do for b in base new; do
  timeout 200 .vx/bench-$b set --log2n 24 --cases sparse,clustered,dense --reps 10 > $OUT/r3/$b-$r.txt 2>&1
done; done
OUT=$OUT/r3/set VKALGO_BENCH=.vx/bench-new SET_TESTS=.vx/set-tests SET_CASES=sparse,dense,clustered timeout 400 bash bench/gpu_set.sh --reps 10 > $OUT/r3/gpu_set.log 2>&1; echo "gpu_set rc $?"
for r in 1 2; do for b in base new; do echo "== $b $r"; grep -E "^(build|and|or|andnot|xor)" $OUT/r3/$b-$r.txt | grep -v cardinality | awk '{print $1, $2, $4}' | paste -sd' ' ; done; done
grep -E "passed|failed|test result" $OUT/r3/set/set_tests.txt | tail -3
cat $OUT/r3/set/table.md | head -60
