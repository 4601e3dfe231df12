#!/usr/bin/env bash
# Command 99: u32 keys into 16 and 32 on the subgroup-staged path, scatter pass times: the real
# split, the probe storing each staged run where its input came from (linear), and that probe
# with the ranking replaced by a fake one too (every item of lane l in bucket l).
set -u
R=$OUT/r99; mkdir -p $R
B=.vx/m99/vkalgo-bench
run() { local name=$1; shift; env "$@" timeout 90 $B multisplit --sizes 24,26 --reps 10 $ARGS > $R/$name.txt 2>&1; echo "$name: $(grep -E '^RESULT' $R/$name.txt | grep multisplit_ | grep -v topbits | awk -F'\t' '{printf "%s/%s=%.4f ", $3,$5,$6}') scatter: $(grep -E 'tile_scatter' $R/$name.txt | awk -F'|' '{print $4}' | tr '\n' ' ')"; }
ARGS="--ms 16,32 --types keys --fns glsl --paths substaged --pass-times"
run real X=1
run linear VKALGO_EXP_DEFINE=PROBE_LINEAR_STORE
run fake-linear VKALGO_EXP_DEFINE=PROBE_FAKE_RANK,PROBE_LINEAR_STORE
run fake-linear-b VKALGO_EXP_DEFINE=PROBE_FAKE_RANK,PROBE_LINEAR_STORE
run linear-b VKALGO_EXP_DEFINE=PROBE_LINEAR_STORE
tar -czf $OUT/r99.tgz -C $OUT r99
