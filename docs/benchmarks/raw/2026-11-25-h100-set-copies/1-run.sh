#!/usr/bin/env bash
# copy kernel (new) against d8ed1c1 (base): set tests, pipeline stats, A/B with variants.
set -u
tar -xJf .var/exp.tar.xz
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
R=/tmp/r10; mkdir -p $R
VKALGO_TEST_NO_VALIDATION=1 timeout 200 .vx/set-tests --test-threads=1 > $R/tests.txt 2>&1; echo "tests rc $?"; grep -E "test result|FAILED|panicked" $R/tests.txt | head
VKALGO_PIPELINE_STATS=1 timeout 60 .vx/bench-new set --cases clustered --reps 2 2>&1 | grep -iE "copy_chunks|small_pairs|chunk_update" | sort -u | head -c 1500 > $R/stats-new.txt
run() { local name=$1; shift; env "$@" timeout 100 .vx/bench-$B set --cases clustered,sparse --reps 10 --pass-times > $R/ab-$name.txt 2>&1; }
B=base run base1
B=new run new1
B=new run first VKALGO_EXP_COPY_FIRST=1
B=new run grid2048 VKALGO_EXP_COPY_GRID=2048
B=new run upd132 VKALGO_EXP_UPDATE_GRID=132
B=base run base2
B=new run new2
tar -czf $OUT/r10.tar.gz -C /tmp r10
cat $R/stats-new.txt; echo
for f in $R/ab-*; do echo "== $f"; grep -E "^(and|or|andnot|xor|build)\S* +(sparse|clustered)" $f | awk '{print $1, $2, $4}' | paste -sd' ' ; done
