#!/usr/bin/env bash
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
R=$OUT/r81; mkdir -p $R
rm -rf /tmp/pyroaring_pkg; mkdir -p /tmp/pyroaring_pkg; python3 -m zipfile -e .pywheels/pyroaring-*.whl /tmp/pyroaring_pkg; export PYTHONPATH=/tmp/pyroaring_pkg
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
VKALGO_REQUIRE_PYROARING=1 VKALGO_TEST_NO_VALIDATION=1 timeout 90 .vx/set-tests-lv --test-threads 1 > $R/set_tests.txt 2>&1; echo "tests rc $?"
grep "test result\|FAILED\|panicked" $R/set_tests.txt | head -5
timeout 40 .vx/bench-rc set --cases clustered,dense --reps 10 --packed > $R/old-1.txt 2>&1; echo "old rc $?"
timeout 40 .vx/bench-lv set --cases clustered,dense --reps 10 --packed > $R/new-1.txt 2>&1; echo "new rc $?"
grep -h "packed memory" $R/old-1.txt $R/new-1.txt
VARS="old new" python3 .vx/cmp.py $R/old-*.txt $R/new-*.txt 2>&1 | tail -48
