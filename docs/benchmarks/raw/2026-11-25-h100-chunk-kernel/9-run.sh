#!/usr/bin/env bash
# The review mend (shared placement and bit-gathering routines): set tests on the GPU, clustered and sparse benchmark once.
set -u
tar -xJf .var/exp.tar.xz
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VKALGO_TEST_NO_VALIDATION=1
timeout 120 .vx/set-tests --test-threads=1 > $OUT/tests.txt 2>&1; echo "tests rc $? $(grep 'test result' $OUT/tests.txt)"
timeout 90 .vx/bench-new set --cases clustered,sparse --reps 10 > $OUT/bench.txt 2>&1
grep -E "^[a-z_]+ +(clustered|sparse) " $OUT/bench.txt | awk '{print $1, $2, $4}'
