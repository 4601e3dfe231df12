#!/usr/bin/env bash
# Command 96: u32 keys into 32 on the subgroup-staged path: the real ranking against a timing
# probe whose ranking is replaced by a fake one (every item of lane l in bucket l; the bucket
# function still computed), with pass times; four and two tiles a workgroup.
set -u
R=$OUT/r96; mkdir -p $R
B=.vx/m96/vkalgo-bench
run() { local name=$1; shift; env "$@" timeout 90 $B multisplit --sizes 24,26 --reps 10 $ARGS > $R/$name.txt 2>&1; echo "$name: $(grep -E '^RESULT' $R/$name.txt | grep multisplit_ | grep -v topbits | awk -F'\t' '{printf "%s/%s=%.4f ", $3,$5,$6}') $(grep -E 'pass \| split_tile_scatter' $R/$name.txt | awk '{print $5}' | tr '\n' ' ')"; }
ARGS="--ms 32 --types keys --fns glsl --paths substaged --pass-times"
run real4 X=1
run fake4 VKALGO_EXP_DEFINE=PROBE_FAKE_RANK
run real2 VKALGO_EXP_TPG=2
run fake2 VKALGO_EXP_TPG=2 VKALGO_EXP_DEFINE=PROBE_FAKE_RANK
tar -czf $OUT/r96.tgz -C $OUT r96
