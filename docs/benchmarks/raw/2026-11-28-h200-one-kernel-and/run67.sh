#!/usr/bin/env bash
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
R=$OUT/r67; mkdir -p $R
rm -rf /tmp/pyroaring_pkg; mkdir -p /tmp/pyroaring_pkg; python3 -m zipfile -e .pywheels/pyroaring-*.whl /tmp/pyroaring_pkg; export PYTHONPATH=/tmp/pyroaring_pkg
export VKALGO_TEST_NO_VALIDATION=1
for t in set engine threads external hash scan merge split sort; do
  s=$(date +%s)
  timeout 100 .vx/t67/$t --test-threads 1 > $R/$t.txt 2>&1; rc=$?
  echo "| $t | rc $rc | $(( $(date +%s) - s )) s | $(grep -h 'test result' $R/$t.txt | sed 's/test result: //') |"
done
