#!/usr/bin/env bash
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
R=$OUT/r80; mkdir -p $R
rm -rf /tmp/pyroaring_pkg; mkdir -p /tmp/pyroaring_pkg; python3 -m zipfile -e .pywheels/pyroaring-*.whl /tmp/pyroaring_pkg; export PYTHONPATH=/tmp/pyroaring_pkg
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
C=clustered,dense
VKALGO_REQUIRE_PYROARING=1 VKALGO_TEST_NO_VALIDATION=1 timeout 120 .vx/set-tests-two --test-threads 1 > $R/set_tests.txt 2>&1; echo "tests rc $?"
grep "test result\|FAILED\|panicked" $R/set_tests.txt | head -5
for round in 1 2; do
  timeout 60 .vx/bench-rc set --cases $C --reps 10 --packed > $R/old-$round.txt 2>&1; echo "old $round rc $?"
  timeout 60 .vx/bench-two set --cases $C --reps 10 --packed > $R/new-$round.txt 2>&1; echo "new $round rc $?"
done
grep -h "packed memory" $R/old-1.txt $R/new-1.txt
VARS="old new" python3 .vx/cmp.py $R/old-*.txt $R/new-*.txt 2>&1 | tail -45
