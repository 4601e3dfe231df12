#!/usr/bin/env bash
# Command 82: the GPU tests of the final build (all but sort and split), then the set benchmark.
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
R=$OUT/r82; mkdir -p $R
rm -rf /tmp/pyroaring_pkg; mkdir -p /tmp/pyroaring_pkg; python3 -m zipfile -e .pywheels/pyroaring-*.whl /tmp/pyroaring_pkg; export PYTHONPATH=/tmp/pyroaring_pkg
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $R/gpu.txt
for t in set merge hash scan engine threads external set_mem; do
  s=$SECONDS
  VKALGO_REQUIRE_PYROARING=1 VKALGO_TEST_NO_VALIDATION=1 timeout 150 .vx/fin/tests/$t --test-threads 1 > $R/tests-$t.txt 2>&1; rc=$?
  echo "tests $t rc $rc $((SECONDS - s))s $(grep 'test result' $R/tests-$t.txt | tail -1)"
done
s=$SECONDS
OUT=$R/set SET_TESTS=none VKALGO_BENCH=.vx/fin/vkalgo-bench timeout 300 bash bench/gpu_set.sh --reps 10 > $R/gpu_set.log 2>&1; echo "gpu_set rc $? $((SECONDS - s))s"
grep -E "^\| set_(and|or|andnot|xor|and_cardinality|to_array|build_sorted) \| (sparse|clustered)|cardinality \| (dense|clustered)|^\| (sparse|dense|clustered) \|" $R/set/table.md | head -40
