#!/usr/bin/env bash
set -u
R=$OUT/r74; mkdir -p $R
OUT=$R/set VKALGO_BENCH=.vx/bench-pack2 SET_TESTS=.vx/set-tests-pack2 SET_CASES=clustered,sparse,dense timeout 560 bash bench/gpu_set.sh --reps 10 --packed > $R/log.txt 2>&1; echo "rc $?"
grep "test result" $R/set/set_tests.txt | head -2
cat $R/set/table.md 2>/dev/null | tail -45
