#!/usr/bin/env bash
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
mkdir -p $OUT/r3
OUT=$OUT/r3/set VKALGO_BENCH=.vx/bench SET_TESTS=/nonexistent SET_CASES=sparse,dense,clustered CROARING_PROCESSES=3 timeout 420 bash bench/gpu_set.sh --reps 10 > $OUT/r3/gpu_set.log 2>&1; echo "gpu_set rc $?"
# CRoaring 4.2.3 (pyroaring 1.0.3) on the same core, three processes, for the versions' times
rm -rf /tmp/pr103 && mkdir -p /tmp/pr103 && python3 -m zipfile -e .var/pyroaring-1.0.3-*.whl /tmp/pr103
core=$(($(nproc) - 1))
for p in 1 2 3; do PYTHONPATH=/tmp/pr103 taskset -c $core timeout 150 python3 bench/croaring_set.py 24 5; done > $OUT/r3/croaring-4.2.3.txt 2>&1
python3 bench/set_compare.py $OUT/r3/set/cuda.txt $OUT/r3/set/vkalgo.txt $OUT/r3/croaring-4.2.3.txt > $OUT/r3/table-croaring-4.2.3.md
echo "== CRoaring 5.2.2, fastest of 3 processes"; grep -E "clustered .*croaring set_(and|or|andnot|xor)|thrust" $OUT/r3/set/table.md
echo "== CRoaring 4.2.3, fastest of 3 processes"; grep -E "clustered .*croaring set_(and|or|andnot|xor)" $OUT/r3/table-croaring-4.2.3.md
grep -E "set_(and|or|andnot|xor)(_cardinality)?\s+clustered" $OUT/r3/set/croaring.txt | awk -F'\t' '{print $3, $6}' | paste -sd' '
