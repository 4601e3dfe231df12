#!/usr/bin/env bash
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
mkdir -p $OUT/r18
(VKALGO_TEST_NO_VALIDATION=1 timeout 150 .vx/set-tests --test-threads 4 > $OUT/r18/set_tests.txt 2>&1; echo "tests rc $?")
grep "test result\|FAILED\|panicked" $OUT/r18/set_tests.txt | head
