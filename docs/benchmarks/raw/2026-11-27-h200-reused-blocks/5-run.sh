#!/usr/bin/env bash
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
mkdir -p $OUT/r4
VKALGO_TEST_NO_VALIDATION=1 timeout 150 .vx/set-tests --test-threads 1 > $OUT/r4/set-tests.txt 2>&1; echo "set tests rc $?"
for r in 1 2; do for b in base reuse v2 new2; do
  timeout 200 .vx/bench-$b set --log2n 24 --cases sparse,clustered,dense --reps 10 > $OUT/r4/$b-$r.txt 2>&1
done; done
for r in 1 2; do for b in base reuse v2 new2; do echo "== $b $r"; grep -E "^(and|or|andnot|xor)" $OUT/r4/$b-$r.txt | awk '{print $1, substr($2,1,1), $4}' | paste -sd' ' ; done; done
grep "test result" $OUT/r4/set-tests.txt
