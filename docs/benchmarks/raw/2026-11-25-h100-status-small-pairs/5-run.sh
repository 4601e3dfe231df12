#!/usr/bin/env bash
# Batched block reservations in small_pairs (res) against 3195c6b (pf): set tests, A/B twice.
set -u
tar -xJf .var/exp.tar.xz
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
R=/tmp/r5; mkdir -p $R
VKALGO_TEST_NO_VALIDATION=1 timeout 200 .vx/set-tests --test-threads=1 > $R/tests.txt 2>&1; echo "tests rc $?"; grep "test result" $R/tests.txt
for i in 1 2; do for b in pf res; do
timeout 120 .vx/bench-$b set --cases sparse,clustered --reps 10 --pass-times > $R/ab-$b-$i.txt 2>&1
done; done
tar -czf $OUT/r5.tar.gz -C /tmp r5
for f in $R/ab-*; do echo "== $f"; grep -E "^(and|or|andnot|xor|build)\S* +(sparse|clustered)" $f | awk '{print $1, $2, $4}' | paste -sd' ' ; done
