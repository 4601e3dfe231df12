#!/usr/bin/env bash
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
mkdir -p $OUT/r8
VKALGO_TEST_NO_VALIDATION=1 timeout 200 .vx/set-tests --test-threads 1 > $OUT/r8/set-tests.txt 2>&1; echo "set tests rc $?"
VKALGO_SHADER_INT16=off VKALGO_TEST_NO_VALIDATION=1 timeout 200 .vx/set-tests --test-threads 1 > $OUT/r8/set-tests-int16-off.txt 2>&1; echo "set tests (int16 off) rc $?"
grep -h "test result" $OUT/r8/*.txt
