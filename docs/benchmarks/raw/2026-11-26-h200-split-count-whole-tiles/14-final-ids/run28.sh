#!/usr/bin/env bash
# 06f5935: the multisplit tests on the GPU, then pairs by IDS and GLSL
set -u
tar -xJf .var/exp.tar.xz
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
R=/tmp/r28; mkdir -p $R
VKALGO_TEST_NO_VALIDATION=1 timeout 330 .vx/split-tests --test-threads=1 > $R/tests.txt 2>&1; echo "tests rc $?"; grep -E "test result|FAILED|panicked" $R/tests.txt | head
timeout 120 .vx/bench-final multisplit --sizes 24,26 --ms 2,3,8,32 --types pairs --fns ids,glsl --paths auto --reps 20 > $R/bench.txt 2>&1
tar -czf $OUT/r28.tar.gz -C /tmp r28
grep -E "^\| pairs +\| (glsl|ids)" $R/bench.txt | awk -F"|" "{printf \"%s%s%s%s %s; \", \$2, \$3, \$5, \$6, \$7}"; echo
