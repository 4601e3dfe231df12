#!/usr/bin/env bash
# Command 102: the set tests on the GPU (058f330), then the set benchmark with the host-call
# cardinality rows against CRoaring (two CRoaring processes, no `full` case).
set -u
for f in .gl/*.deb; do dpkg -x $f / >/dev/null; done; ldconfig
R=/tmp/r102; mkdir -p $R
rm -rf /tmp/pyroaring_pkg; mkdir -p /tmp/pyroaring_pkg; python3 -m zipfile -e .pywheels/pyroaring-*.whl /tmp/pyroaring_pkg; export PYTHONPATH=/tmp/pyroaring_pkg
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $R/gpu.txt
s=$SECONDS
VKALGO_REQUIRE_PYROARING=1 VKALGO_TEST_NO_VALIDATION=1 timeout 200 .vx/m102/set-tests --test-threads 2 > $R/tests-set.txt 2>&1; rc=$?
echo "tests set rc $rc $((SECONDS - s))s $(grep 'test result' $R/tests-set.txt | tail -1)"
s=$SECONDS
OUT=$R/set SET_TESTS=none VKALGO_BENCH=.vx/m102/vkalgo-bench SET_CASES=sparse,dense,clustered CROARING_PROCESSES=2 timeout 330 bash bench/gpu_set.sh --reps 10 > $R/gpu_set.log 2>&1; echo "gpu_set rc $? $((SECONDS - s))s"
tar -czf $OUT/r102.tar.gz -C /tmp r102
grep -E "cardinality" $R/set/table.md | head -40
