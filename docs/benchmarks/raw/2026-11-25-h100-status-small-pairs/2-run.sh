#!/usr/bin/env bash
# small_pairs software pipeline (pf) against 5d13b7a (base): set tests, pipeline stats, A/B.
set -u
tar -xJf .var/exp.tar.xz
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
R=/tmp/r2; mkdir -p $R
VKALGO_TEST_NO_VALIDATION=1 timeout 200 .vx/set-tests --test-threads=1 > $R/tests.txt 2>&1; echo "tests rc $?"; grep "test result" $R/tests.txt
for b in base pf; do VKALGO_PIPELINE_STATS=1 timeout 60 .vx/bench-$b set --cases sparse --reps 2 2>&1 | grep -i "small_pairs" > $R/stats-$b.txt; done
for i in 1 2; do for b in base pf; do
timeout 120 .vx/bench-$b set --cases sparse,clustered --reps 10 --pass-times > $R/ab-$b-$i.txt 2>&1
done; done
tar -czf $OUT/r2.tar.gz -C /tmp r2
head -c 1500 $R/stats-base.txt; echo; head -c 1500 $R/stats-pf.txt; echo
for f in $R/ab-*; do echo "== $f"; grep -E "^(and|or|andnot|xor|build)\S* +(sparse|clustered)" $f | awk '{print $1, $2, $4}' | paste -sd' ' ; done
