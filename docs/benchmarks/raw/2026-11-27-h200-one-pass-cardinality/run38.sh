#!/usr/bin/env bash
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
R=$OUT/r38; mkdir -p $R
VKALGO_TEST_NO_VALIDATION=1 timeout 150 .vx/set-tests-new --test-threads=1 > $R/set-tests.txt 2>&1
grep "test result" $R/set-tests.txt
C="--log2n 24 --reps 10"
timeout 100 .vx/bench-base set $C --cases sparse,dense,clustered > $R/base-1.txt 2>&1
VKALGO_BENCH_CARD_PATH=passes timeout 100 .vx/bench-new set $C --cases sparse,dense,clustered > $R/passes-1.txt 2>&1
VKALGO_BENCH_CARD_PATH=one-pass timeout 120 .vx/bench-new set $C --cases sparse,dense,clustered > $R/onepass-1.txt 2>&1
timeout 100 .vx/bench-new set $C --cases sparse,dense,clustered > $R/auto-1.txt 2>&1
timeout 60 .vx/bench-base set $C --cases clustered > $R/base-2.txt 2>&1
VKALGO_BENCH_CARD_PATH=passes timeout 60 .vx/bench-new set $C --cases clustered > $R/passes-2.txt 2>&1
VKALGO_BENCH_CARD_PATH=one-pass timeout 60 .vx/bench-new set $C --cases clustered --pass-times > $R/onepass-2.txt 2>&1
grep -h "panicked\|error" $R/*-[12].txt | head
VARS="base passes onepass auto" python3 .vx/cmp.py $R/*-[12].txt | grep -v "copy_\|memory_\|contains\|filter\|to_array\|build"
