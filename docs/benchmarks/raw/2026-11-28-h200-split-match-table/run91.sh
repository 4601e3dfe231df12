#!/usr/bin/env bash
# Command 91: with the match table, BITS pairs on the staged path by first-tile order; keys on
# the subgroup-staged path by tiles a workgroup (and first-tile order at 1 tile).
set -u
R=$OUT/r91; mkdir -p $R
B=.vx/m91/vkalgo-bench
P="multisplit --sizes 24,26 --ms 16,32 --reps 10"
run() { local name=$1; shift; env "$@" timeout 60 $B $P $ARGS > $R/$name.txt 2>&1; echo "$name: $(grep -E '^RESULT' $R/$name.txt | grep multisplit_ | grep -v topbits | awk -F'\t' '{printf "%s/%s/%s=%.4f ", $3,$4,$5,$6}')"; }
ARGS="--types pairs --fns bits --paths staged"
run pairs-off X=1
run pairs-table VKALGO_EXP_MATCH_BITS=1
run pairs-table-o0 VKALGO_EXP_MATCH_BITS=1 VKALGO_EXP_ORDER=0
run pairs-table-o1 VKALGO_EXP_MATCH_BITS=1 VKALGO_EXP_ORDER=1
run pairs-off-o0 VKALGO_EXP_ORDER=0
ARGS="--types keys --fns glsl,bits --paths substaged"
run keys-tpg4 X=1
run keys-tpg2 VKALGO_EXP_TPG=2
run keys-tpg8 VKALGO_EXP_TPG=8
run keys-tpg1-o0 VKALGO_EXP_TPG=1 VKALGO_EXP_ORDER=0
run keys-tpg1-o1 VKALGO_EXP_TPG=1 VKALGO_EXP_ORDER=1
run keys-tpg1-o2 VKALGO_EXP_TPG=1 VKALGO_EXP_ORDER=2
run keys-tpg4b X=1
tar -czf $OUT/r91.tgz -C $OUT r91
