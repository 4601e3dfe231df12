#!/usr/bin/env bash
# Command 98: u32 keys into 16 and 32 on the subgroup-staged path: the real split against a
# timing probe that ranks and stages as usual but stores each subgroup's staged run where its
# input came from (coalesced, results wrong), with pass times.
set -u
R=$OUT/r98; mkdir -p $R
B=.vx/m98/vkalgo-bench
run() { local name=$1; shift; env "$@" timeout 90 $B multisplit --sizes 24,26 --reps 10 $ARGS > $R/$name.txt 2>&1; echo "$name: $(grep -E '^RESULT' $R/$name.txt | grep multisplit_ | grep -v topbits | awk -F'\t' '{printf "%s/%s=%.4f ", $3,$5,$6}') scatter: $(grep -E 'tile_scatter' $R/$name.txt | awk -F'|' '{print $4}' | tr '\n' ' ')"; }
ARGS="--ms 16,32 --types keys --fns glsl --paths substaged --pass-times"
run real X=1
run linear VKALGO_EXP_DEFINE=PROBE_LINEAR_STORE
run real-b X=1
run linear-b VKALGO_EXP_DEFINE=PROBE_LINEAR_STORE
tar -czf $OUT/r98.tgz -C $OUT r98
