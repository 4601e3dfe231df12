#!/usr/bin/env bash
# Command 92: the last two multisplit tests on the GPU (the final build); GLSL pairs on the
# staged path with the table by first-tile order (experiment build); the final build's BITS pairs.
set -u
R=$OUT/r92; mkdir -p $R
s=$SECONDS
VKALGO_TEST_NO_VALIDATION=1 timeout 130 .vx/m92/split --test-threads 1 subgroup_staged_tile_path unsorted_splitters > $R/split-tests.txt 2>&1; echo "split tests rc $? $((SECONDS - s))s $(grep 'test result' $R/split-tests.txt)"
P="multisplit --sizes 24,26 --ms 16,32 --reps 10 --types pairs --paths staged"
run() { local name=$1 b=$2 fns=$3; shift 3; env "$@" timeout 40 $b $P --fns $fns > $R/$name.txt 2>&1; echo "$name: $(grep -E '^RESULT' $R/$name.txt | grep multisplit_ | awk -F'\t' '{printf "%s/%s/%s=%.4f ", $3,$4,$5,$6}')"; }
run glsl-o2 .vx/m92/bench-exp glsl VKALGO_EXP_ORDER=2
run glsl-o0 .vx/m92/bench-exp glsl VKALGO_EXP_ORDER=0
run glsl-o1 .vx/m92/bench-exp glsl VKALGO_EXP_ORDER=1
run final .vx/m92/vkalgo-bench glsl,bits X=1
tar -czf $OUT/r92.tgz -C $OUT r92
