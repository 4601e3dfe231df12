#!/usr/bin/env bash
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
R=$OUT/r66; mkdir -p $R
rm -rf /tmp/pyroaring_pkg; mkdir -p /tmp/pyroaring_pkg; python3 -m zipfile -e .pywheels/pyroaring-*.whl /tmp/pyroaring_pkg; export PYTHONPATH=/tmp/pyroaring_pkg
echo "ulimit -n soft $(ulimit -n) hard $(ulimit -Hn)"
VKALGO_TEST_NO_VALIDATION=1 .vx/set-tests-and --test-threads 1 > $R/t1.txt 2>&1 &
P=$!
for i in $(seq 1 60); do
  [ -d /proc/$P ] || break
  echo "$(ls /proc/$P/fd 2>/dev/null | wc -l) fds, $(grep Threads /proc/$P/status | awk '{print $2}') threads, $(grep VmRSS /proc/$P/status | awk '{print $2}') kB, $(grep -c '^test ' $R/t1.txt) tests"
  sleep 1
done > $R/fds.txt
wait $P; echo "first run rc $?"
grep "test result" $R/t1.txt
awk 'NR%3==1' $R/fds.txt | head -20
ulimit -n $(ulimit -Hn)
VKALGO_TEST_NO_VALIDATION=1 timeout 120 .vx/set-tests-and --test-threads 1 > $R/t2.txt 2>&1; echo "raised ulimit rc $?"
grep "test result" $R/t2.txt
