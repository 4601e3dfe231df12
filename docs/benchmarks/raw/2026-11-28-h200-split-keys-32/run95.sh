#!/usr/bin/env bash
# Command 95: u32 keys into 16, 24 and 32: the staged path ranked through the table with
# smaller workgroups (128 and 64 invocations: longer runs per bucket than a subgroup's, shorter
# barriers than 256's) by items a lane, against the subgroup-staged path.
set -u
R=$OUT/r95; mkdir -p $R
B=.vx/m95/vkalgo-bench
run() { local name=$1; shift; env "$@" timeout 90 $B multisplit --sizes 24,26 --reps 10 $ARGS > $R/$name.txt 2>&1; echo "$name: $(grep -E '^RESULT' $R/$name.txt | grep multisplit_ | grep -v topbits | awk -F'\t' '{printf "%s/%s=%.4f ", $3,$5,$6}')"; }
ARGS="--ms 16,24,32 --types keys --fns glsl --paths substaged"
run sub256 X=1
run sub128 VKALGO_EXP_WG=128
for wg in 128 64; do for it in 8 12 16; do
ARGS="--ms 16,24,32 --types keys --fns glsl --paths staged --tile-items $it"
run st$wg-$it VKALGO_EXP_WG=$wg VKALGO_EXP_KEYS_TABLE=1
done; done
ARGS="--ms 16,24,32 --types keys --fns glsl --paths staged --tile-items 24"
run st64-24 VKALGO_EXP_WG=64 VKALGO_EXP_KEYS_TABLE=1
ARGS="--ms 16,32 --types keys --fns bits --paths staged --tile-items 12 --pass-times"
run passes128 VKALGO_EXP_WG=128 VKALGO_EXP_KEYS_TABLE=1
tar -czf $OUT/r95.tgz -C $OUT r95
