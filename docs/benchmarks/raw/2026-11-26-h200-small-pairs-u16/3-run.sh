set -e
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
mkdir -p $OUT/set
OUT=$OUT/set VKALGO_BENCH=.vx/bench-new SET_TESTS=.vx/set-tests SET_CASES=sparse,dense,clustered bash bench/gpu_set.sh --reps 10 > $OUT/set/log.txt 2>&1 || echo "gpu_set rc=$?"
echo "=== set tests without shaderInt16"
VKALGO_SHADER_INT16=off VKALGO_TEST_NO_VALIDATION=1 VKALGO_REQUIRE_PYROARING=1 PYTHONPATH=/tmp/pyroaring_pkg .vx/set-tests --test-threads=1 2>&1 | tail -3 | tee $OUT/set_tests_int16_off.txt
for P in p0 new; do
  echo "=== $P"
  .vx/bench-$P set --cases sparse --reps 10 2>&1 | grep -E "^[a-z_]+ +sparse " | tee $OUT/ab-$P.txt
done
grep -E "test result|FAILED|panicked" $OUT/set/set_tests.txt | head
cat $OUT/set/table.md | head -40
