#!/usr/bin/env bash
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
R=/tmp/r65; mkdir -p $R
s=$(date +%s)
OUT=$R/full SET_CASES=clustered,sparse,dense VKALGO_BENCH=.vx/bench-and SET_TESTS=.vx/set-tests-and timeout 480 bash bench/gpu_set.sh --reps 10 > $R/gpu_set.log 2>&1
echo "gpu_set rc $? $(( $(date +%s) - s )) s"
grep "test result" $R/full/set_tests.txt
for round in 1 2; do
  VKALGO_BENCH_OP_PATH=pair-kernels timeout 60 .vx/bench-and set --log2n 24 --reps 10 --cases clustered > $R/pairs-$round.txt 2>&1
  timeout 60 .vx/bench-and set --log2n 24 --reps 10 --cases clustered > $R/auto-$round.txt 2>&1
done
tar -czf $OUT/r65.tar.gz -C /tmp r65
VARS="pairs auto" python3 .vx/cmp.py $R/*-[12].txt | grep "set_and\|set_or\|set_xor\|set_andnot" | grep -v "cardinality"
cat $R/full/table.md
