#!/usr/bin/env bash
# Command 93: u32 keys into 16-32: the staged path ranked through the table (items 8/12/16)
# against the subgroup-staged path (tiles a workgroup 4 and 2); pass times into 28 and 32.
set -u
R=$OUT/r93; mkdir -p $R
B=.vx/m93/vkalgo-bench
run() { local name=$1; shift; env "$@" timeout 90 $B multisplit --sizes 24,26 --reps 10 $ARGS > $R/$name.txt 2>&1; echo "$name: $(grep -E '^RESULT' $R/$name.txt | grep multisplit_ | grep -v topbits | awk -F'\t' '{printf "%s/%s/%s=%.4f ", $3,$4,$5,$6}')"; }
ARGS="--ms 16,24,32 --types keys --fns glsl,bits --paths substaged"
run sub4 X=1
ARGS="--ms 16,24,32 --types keys --fns glsl,bits --paths staged"
run st8-ballots X=1
run st8-table VKALGO_EXP_KEYS_TABLE=1
ARGS="--ms 16,24,32 --types keys --fns glsl,bits --paths staged --tile-items 12"
run st12-table VKALGO_EXP_KEYS_TABLE=1
ARGS="--ms 16,24,32 --types keys --fns glsl,bits --paths staged --tile-items 16"
run st16-table VKALGO_EXP_KEYS_TABLE=1
ARGS="--ms 16,24,32 --types keys --fns glsl,bits --paths staged --tile-items 12"
run st12-table-o0 VKALGO_EXP_KEYS_TABLE=1 VKALGO_EXP_ORDER=0
ARGS="--ms 17,20,24,28,32 --types keys --fns glsl,bits --paths substaged"
run sub2 VKALGO_EXP_TPG=2
run sub4b X=1
ARGS="--ms 28,32 --types keys --fns bits --paths substaged --pass-times"
run passes X=1
tar -czf $OUT/r93.tgz -C $OUT r93
