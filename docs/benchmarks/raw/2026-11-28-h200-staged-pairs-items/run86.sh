#!/usr/bin/env bash
# Command 86: the staged pairs' 7 items as the default: split tests, Auto against CUB, SPLITTERS 7 vs 8.
set -u
R=$OUT/r86; mkdir -p $R/ms
s=$SECONDS
VKALGO_TEST_NO_VALIDATION=1 timeout 170 .vx/new/split --test-threads 1 > $R/split-tests.txt 2>&1; echo "split tests rc $? $((SECONDS - s))s $(grep 'test result' $R/split-tests.txt)"
grep -E "^test .*(FAILED|ok)$" $R/split-tests.txt | tr '\n' ' ' | head -c 3000; echo
s=$SECONDS
OUT=$R/ms TESTS= MS="4 8 12 16 24 32" VKALGO_BENCH=.vx/new/vkalgo-bench timeout 150 bash bench/gpu_multisplit.sh --types pairs --fns glsl,bits,ids --reps 20 > $R/ms.log 2>&1; echo "multisplit rc $? $((SECONDS - s))s"
for it in 8 7; do timeout 60 .vx/fin/vkalgo-bench multisplit --sizes 24,26 --ms 8,16,32 --types pairs --fns splitters --paths staged --tile-items $it --reps 10 > $R/splitters-$it.txt 2>&1; done
tar -czf $OUT/r86.tgz -C $OUT r86
grep -E "^\| pairs" $R/ms/multisplit-table.md
for it in 8 7; do echo "splitters $it: $(grep -E '^RESULT' $R/splitters-$it.txt | grep multisplit_pairs | awk -F'\t' '{printf "%s/%s=%s ", $3,$5,$6}')"; done
