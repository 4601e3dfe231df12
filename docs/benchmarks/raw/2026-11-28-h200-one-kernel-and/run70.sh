#!/usr/bin/env bash
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
R=$OUT/r70; mkdir -p $R
rm -rf /tmp/pyroaring_pkg; mkdir -p /tmp/pyroaring_pkg; python3 -m zipfile -e .pywheels/pyroaring-*.whl /tmp/pyroaring_pkg; export PYTHONPATH=/tmp/pyroaring_pkg
VKALGO_TEST_NO_VALIDATION=1 timeout 100 .vx/set-tests-chk --test-threads 1 > $R/set_tests.txt 2>&1; echo "tests rc $?"
grep "test result\|FAILED\|panicked" $R/set_tests.txt | head -5
for round in 1 2; do
  for b in and chk; do
    timeout 40 .vx/bench-$b set --log2n 24 --reps 10 --cases clustered > $R/$b-$round.txt 2>&1
  done
done
grep -h "panicked\|rror" $R/*-[12].txt | head
VARS="and chk" python3 .vx/cmp.py $R/*-[12].txt | grep "set_and\|set_or\|set_xor" | grep -v "x16\|batch"
