#!/usr/bin/env bash
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
R=$OUT/r76; mkdir -p $R
rm -rf /tmp/pyroaring_pkg; mkdir -p /tmp/pyroaring_pkg; python3 -m zipfile -e .pywheels/pyroaring-*.whl /tmp/pyroaring_pkg; export PYTHONPATH=/tmp/pyroaring_pkg
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
C=clustered,sparse,dense
VKALGO_REQUIRE_PYROARING=1 VKALGO_TEST_NO_VALIDATION=1 timeout 200 .vx/set-tests-off --test-threads 1 > $R/set_tests.txt 2>&1; echo "tests rc $?"
grep "test result\|FAILED\|panicked" $R/set_tests.txt | head -5
for round in 1 2; do
  timeout 100 .vx/bench-diag set --cases $C --reps 10 > $R/old-$round.txt 2>&1; echo "old $round rc $?"
  timeout 100 .vx/bench-off set --cases $C --reps 10 > $R/new-$round.txt 2>&1; echo "new $round rc $?"
done
timeout 100 .vx/bench-diag set --cases $C --reps 10 --packed > $R/oldpacked.txt 2>&1; echo "oldpacked rc $?"
timeout 100 .vx/bench-off set --cases $C --reps 10 --packed --pass-times > $R/newpacked.txt 2>&1; echo "newpacked rc $?"
timeout 200 .vx/bench-off large --only sets > $R/large.txt 2>&1; echo "large rc $?"
tail -5 $R/large.txt
grep -E "pass \||^to_array" $R/newpacked.txt | grep -B3 "^to_array"
for v in old new; do for f in $R/$v-*.txt; do echo "$v $(basename $f): $(grep -E '^(to_array|filter|contains) ' $f | awk '{print $1, $2, $4}' | tr '\n' ';')"; done; done
for f in $R/oldpacked.txt $R/newpacked.txt; do echo "$(basename $f): $(grep -E '^(to_array) ' $f | awk '{print $1, $2, $4}' | tr '\n' ';')"; done
