#!/usr/bin/env bash
# Command 100: the table ranking with every item's OR before one subgroup barrier (new) against
# one barrier per item (PROBE_PER_ITEM_TABLE, GLSL pipelines only): keys subgroup-staged and
# u32 -> u32 pairs staged into 16, 24 and 32, two rounds; then the multisplit tests on the GPU
# and Auto against CUB.
set -u
R=$OUT/r100; mkdir -p $R/ms
B=.vx/m100/vkalgo-bench
run() { local name=$1; shift; env "$@" timeout 60 $B multisplit --sizes 24,26 --reps 10 $ARGS > $R/$name.txt 2>&1; echo "$name: $(grep -E '^RESULT' $R/$name.txt | grep multisplit_ | grep -v topbits | awk -F'\t' '{printf "%s/%s/%s=%.4f ", $3,$4,$5,$6}')"; }
ARGS="--ms 16,24,32 --types keys,pairs --fns glsl"
for round in 1 2; do
run old-$round VKALGO_EXP_DEFINE=PROBE_PER_ITEM_TABLE
run new-$round X=1
done
s=$SECONDS
OUT=$R/ms TESTS=.vx/m100/split MS="16 24 32" VKALGO_BENCH=$B timeout 230 bash bench/gpu_multisplit.sh --fns glsl,bits --reps 20 > $R/ms.log 2>&1; echo "multisplit rc $? $((SECONDS - s))s"
grep "test result" $R/ms/multisplit-tests.txt
grep -E "FAILED|panicked" $R/ms/multisplit-tests.txt | head -5
tar -czf $OUT/r100.tgz -C $OUT r100
cat $R/ms/multisplit-table.md
