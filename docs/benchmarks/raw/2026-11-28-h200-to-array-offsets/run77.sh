#!/usr/bin/env bash
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
R=$OUT/r77; mkdir -p $R
rm -rf /tmp/pyroaring_pkg; mkdir -p /tmp/pyroaring_pkg; python3 -m zipfile -e .pywheels/pyroaring-*.whl /tmp/pyroaring_pkg; export PYTHONPATH=/tmp/pyroaring_pkg
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
C=clustered,sparse,dense
VKALGO_REQUIRE_PYROARING=1 VKALGO_TEST_NO_VALIDATION=1 timeout 200 .vx/set-tests-rc --test-threads 1 > $R/set_tests.txt 2>&1; echo "tests rc $?"
grep "test result\|FAILED\|panicked" $R/set_tests.txt | head -5
timeout 120 python3 .vx/py/croaring_set.py 24 5 > $R/croaring.txt 2>&1; echo "croaring rc $?"
for round in 1 2; do
  timeout 100 .vx/bench-diag set --cases $C --reps 10 > $R/old-$round.txt 2>&1; echo "old $round rc $?"
  timeout 100 .vx/bench-rc set --cases $C --reps 10 > $R/new-$round.txt 2>&1; echo "new $round rc $?"
done
timeout 100 .vx/bench-rc set --cases $C --reps 10 --packed --pass-times > $R/newpacked.txt 2>&1; echo "newpacked rc $?"
grep -E "pass \||^(cardinality|range_cardinality) " $R/newpacked.txt | grep -B2 -E "^(cardinality|range_cardinality) "
grep -E "^(cardinality|range_cardinality|to_array) " $R/croaring.txt
for f in $R/old-*.txt $R/new-*.txt $R/newpacked.txt; do echo "$(basename $f): $(grep -E '^(to_array|cardinality|range_cardinality|and|and_cardinality) ' $f | awk '{print $1, substr($2,1,2), $4}' | tr '\n' ';')"; done
