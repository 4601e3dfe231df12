#!/usr/bin/env bash
# set tests of the working tree (new test copies_many_per_workgroup, kernels unchanged), twice.
set -u
tar -xJf .var/exp.tar.xz
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
R=/tmp/r12; mkdir -p $R
for i in 1 2; do VKALGO_TEST_NO_VALIDATION=1 timeout 150 .vx/set-tests --test-threads=1 > $R/tests-$i.txt 2>&1; echo "tests $i rc $?"; done
tar -czf $OUT/r12.tar.gz -C /tmp r12
grep -E "copies_many|test result|FAILED|panicked" $R/tests-*.txt
