#!/usr/bin/env bash
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
R=/tmp/r45; mkdir -p $R
VKALGO_TEST_NO_VALIDATION=1 timeout 150 .vx/set-tests-new --test-threads=1 > $R/set-tests.txt 2>&1
grep "test result" $R/set-tests.txt
for round in 1 2; do
  timeout 150 .vx/bench-new set --log2n 24 --reps 10 --cases clustered,sparse,dense > $R/big-$round.txt 2>&1
  timeout 60 .vx/bench-new set --log2n 13 --reps 10 --cases arrays > $R/arrays13-$round.txt 2>&1
  timeout 60 .vx/bench-new set --log2n 16 --reps 10 --cases arrays,long-arrays > $R/arrays16-$round.txt 2>&1
done
grep -h "panicked\|error" $R/*-[12].txt | head
for v in big arrays13 arrays16; do VARS="$v" python3 .vx/cmp.py $R/$v-[12].txt | grep "cardinality"; done
tar -czf $OUT/r45.tar.gz -C /tmp r45
