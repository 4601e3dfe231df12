#!/usr/bin/env bash
# cardinalities' two clears in one dispatch (fill) against 9ec2a5e (main): set tests, A/B twice.
set -u
tar -xJf .var/exp.tar.xz
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
R=/tmp/r16; mkdir -p $R
VKALGO_TEST_NO_VALIDATION=1 timeout 150 .vx/set-tests --test-threads=1 > $R/tests.txt 2>&1; echo "tests rc $?"; grep -E "test result|FAILED|panicked" $R/tests.txt | head
run() { timeout 100 .vx/bench-$1 set --cases dense,clustered,sparse --reps 10 > $R/ab-$1-$2.txt 2>&1; }
run main 1; run fill 1; run main 2; run fill 2
tar -czf $OUT/r16.tar.gz -C /tmp r16
for f in $R/ab-*; do echo "== $f"; grep -E "^\S*cardinality +(sparse|clustered|dense)" $f | awk '{print $1, $2, $4}' | paste -sd' ' ; grep -E "^(and|or)(_reserved)? +(dense|clustered)" $f | awk '{print $1, $2, $4}' | paste -sd' '; done
