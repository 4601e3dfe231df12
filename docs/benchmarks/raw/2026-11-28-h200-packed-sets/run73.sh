#!/usr/bin/env bash
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
R=$OUT/r73; mkdir -p $R
rm -rf /tmp/pyroaring_pkg; mkdir -p /tmp/pyroaring_pkg; python3 -m zipfile -e .pywheels/pyroaring-*.whl /tmp/pyroaring_pkg; export PYTHONPATH=/tmp/pyroaring_pkg
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
C=clustered,sparse,dense
for round in 1 2; do
  timeout 100 .vx/bench-head set --cases $C --reps 10 > $R/head-$round.txt 2>&1; echo "head $round rc $?"
  timeout 100 .vx/bench-pack set --cases $C --reps 10 > $R/flat-$round.txt 2>&1; echo "flat $round rc $?"
  timeout 100 .vx/bench-pack set --cases $C --reps 10 --packed > $R/packed-$round.txt 2>&1; echo "packed $round rc $?"
  if [ $round = 1 ]; then
    VKALGO_REQUIRE_PYROARING=1 VKALGO_TEST_NO_VALIDATION=1 timeout 150 .vx/set-tests-pack --test-threads 1 > $R/set_tests.txt 2>&1; echo "tests rc $?"
    grep "test result\|FAILED\|panicked" $R/set_tests.txt | head -5
  fi
done
grep -h "memory\|packed, memory" $R/flat-1.txt | head -12
VARS="head flat packed" python3 .vx/cmp.py $R/head-*.txt $R/flat-*.txt $R/packed-*.txt
