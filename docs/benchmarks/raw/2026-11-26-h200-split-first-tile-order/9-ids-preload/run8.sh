#!/usr/bin/env bash
# IDS: every item's id loaded before the ranking (ids) against 0697a94 (final)
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
R=/tmp/r8; mkdir -p $R
VKALGO_TEST_NO_VALIDATION=1 timeout 200 .vx/split-tests every_bucket_fn adversarial staged_tile_path matrix_scanned > $R/tests-ids.txt 2>&1; echo "tests rc $?"
for r in 1 2; do for b in final ids; do timeout 200 .vx/bench-$b multisplit --sizes 24,26 --ms 2,3,8,32 --types keys,pairs --fns ids --paths auto --reps 20 --pass-times > $R/ab-$b-$r.txt 2>&1; done; done
tar -czf $OUT/r8.tar.gz -C /tmp r8
grep "test result" $R/tests-ids.txt
for f in $R/ab-*; do echo "== $(basename $f)"; grep -E "^\| (keys|pairs) +\| (glsl|bits|ids)" $f | awk -F'|' '{printf "%s%s%s %s %s; ", $2, $4, $5, $6, $7}'; echo; done
