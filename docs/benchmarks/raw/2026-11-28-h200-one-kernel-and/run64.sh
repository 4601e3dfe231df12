#!/usr/bin/env bash
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
R=$OUT/r64; mkdir -p $R
rm -rf /tmp/pyroaring_pkg; mkdir -p /tmp/pyroaring_pkg; python3 -m zipfile -e .pywheels/pyroaring-*.whl /tmp/pyroaring_pkg; export PYTHONPATH=/tmp/pyroaring_pkg
s=$(date +%s)
VKALGO_TEST_NO_VALIDATION=1 timeout 170 .vx/set-tests-onek --test-threads 1 > $R/set_tests.txt 2>&1; echo "tests rc $? $(( $(date +%s) - s )) s"
grep "test result\|FAILED\|panicked" $R/set_tests.txt | head -5
for round in 1 2; do
  s=$(date +%s)
  VKALGO_BENCH_OP_PATH=pair-kernels timeout 100 .vx/bench-onek set --log2n 24 --reps 10 --cases clustered > $R/pairs-$round.txt 2>&1
  timeout 100 .vx/bench-onek set --log2n 24 --reps 10 --cases clustered > $R/auto-$round.txt 2>&1
  echo "round $round $(( $(date +%s) - s )) s"
done
grep -h "panicked\|rror" $R/*-[12].txt | head
VARS="pairs auto" python3 .vx/cmp.py $R/*-[12].txt | grep -v "contains\|filter\|to_array"
