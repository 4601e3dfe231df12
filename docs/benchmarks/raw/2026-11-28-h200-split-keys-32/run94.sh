#!/usr/bin/env bash
# Command 94: u32 keys into 28-32 on the subgroup-staged path, tiles a workgroup 4 and 2, on
# uniform keys and on keys scaled to [0, 0.984 * 2^32) (bucket starts off the powers of two);
# then the multisplit tests on the GPU, 8 at a time.
set -u
R=$OUT/r94; mkdir -p $R
B=.vx/m94/vkalgo-bench
run() { local name=$1; shift; env "$@" timeout 90 $B multisplit --sizes 24,26 --reps 10 $ARGS > $R/$name.txt 2>&1; echo "$name: $(grep -E '^RESULT' $R/$name.txt | grep multisplit_ | grep -v topbits | awk -F'\t' '{printf "%s/%s/%s=%.4f ", $3,$4,$5,$6}')"; }
ARGS="--ms 16,28,30,31,32 --types keys --fns glsl --paths substaged"
run u4 X=1
run u2 VKALGO_EXP_TPG=2
run s4 VKALGO_EXP_KEY_SCALE=4227858432
run s2 VKALGO_EXP_TPG=2 VKALGO_EXP_KEY_SCALE=4227858432
run u4b X=1
s=$SECONDS
VKALGO_TEST_NO_VALIDATION=1 timeout 300 .vx/m94/split --test-threads 8 > $R/split-tests.txt 2>&1; echo "split tests rc $? $((SECONDS - s))s $(grep 'test result' $R/split-tests.txt)"
grep -E "FAILED|panicked" $R/split-tests.txt | head -5
tar -czf $OUT/r94.tgz -C $OUT r94
