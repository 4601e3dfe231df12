#!/usr/bin/env bash
# pair kernels loading the next listed chunk's entries ahead and both lists together (new)
# against d8ed1c1 (base): set tests, pipeline stats, A/B twice.
set -u
tar -xJf .var/exp.tar.xz
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
R=/tmp/r13; mkdir -p $R
VKALGO_TEST_NO_VALIDATION=1 timeout 150 .vx/set-tests --test-threads=1 > $R/tests.txt 2>&1; echo "tests rc $?"; grep -E "test result|FAILED|panicked" $R/tests.txt | head
for b in base new; do VKALGO_PIPELINE_STATS=1 timeout 60 .vx/bench-$b set --cases clustered --reps 2 2>&1 | grep -iE "chunk_update|array_pairs|small_pairs" | sort -u > $R/stats-$b.txt; done
run() { timeout 100 .vx/bench-$1 set --cases clustered,sparse --reps 10 --pass-times > $R/ab-$1-$2.txt 2>&1; }
run base 1; run new 1; run base 2; run new 2
tar -czf $OUT/r13.tar.gz -C /tmp r13
cut -c1-160 $R/stats-*.txt
for f in $R/ab-*; do echo "== $f"; grep -E "^(and|or|andnot|xor|build)\S* +(sparse|clustered)" $f | awk '{print $1, $2, $4}' | paste -sd' ' ; done
for f in $R/ab-base-1.txt $R/ab-new-1.txt; do echo "== passes $f"; for op in and or; do grep -B10 "^${op}_reserved *clustered" $f | grep pass | awk -F'|' '{printf "%s=%s ", $3, $4}'; echo; done; done
