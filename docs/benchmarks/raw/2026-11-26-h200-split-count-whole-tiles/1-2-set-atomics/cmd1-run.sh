#!/usr/bin/env bash
# block atomics issued together (new) against 684af86 (base)
set -u
tar -xJf .var/exp.tar.xz
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
R=/tmp/r17; mkdir -p $R
VKALGO_TEST_NO_VALIDATION=1 timeout 150 .vx/set-tests --test-threads=1 > $R/tests.txt 2>&1; echo "tests rc $?"; grep -E "test result|FAILED|panicked" $R/tests.txt | head
for b in base new; do VKALGO_PIPELINE_STATS=1 timeout 60 .vx/bench-$b set --cases clustered --reps 2 2>&1 | grep -iE "chunk_update|array_pairs|small_pairs" | sort -u > $R/stats-$b.txt; done
run() { timeout 100 .vx/bench-$1 set --cases clustered,sparse --reps 10 --pass-times > $R/ab-$1-$2.txt 2>&1; }
run base 1; run new 1; run base 2; run new 2
tar -czf $OUT/r17.tar.gz -C /tmp r17
cut -c1-170 $R/stats-*.txt
for f in $R/ab-*; do echo "== $f"; grep -E "^(and|or|andnot|xor)\S* +(sparse|clustered)" $f | awk '{print $1, $2, $4}' | paste -sd' ' ; done
