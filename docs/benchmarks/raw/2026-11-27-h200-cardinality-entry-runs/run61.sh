#!/usr/bin/env bash
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
R=$OUT/r61; mkdir -p $R
rm -rf /tmp/pyroaring_pkg; mkdir -p /tmp/pyroaring_pkg; python3 -m zipfile -e .pywheels/pyroaring-*.whl /tmp/pyroaring_pkg; export PYTHONPATH=/tmp/pyroaring_pkg
timeout 150 .vx/set-tests-final --test-threads 1 > $R/set_tests.txt 2>&1; echo "tests rc $?"
grep "test result" $R/set_tests.txt
timeout 110 .vx/bench-final set --reps 10 --cases full > $R/full-1.txt 2>&1
grep "^RESULT.*full" $R/full-1.txt | cut -f3,6,8
