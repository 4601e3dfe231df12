set -e
. bench/gpu_setup.sh > $OUT/setup.txt 2>&1
for v in base final; do xz -dc .vx/bench-$v.xz > /tmp/bench-$v; chmod +x /tmp/bench-$v; done
xz -dc .vx/split-tests.xz > /tmp/split-tests; chmod +x /tmp/split-tests
s=$(date +%s)
VKALGO_TEST_NO_VALIDATION=1 timeout 200 /tmp/split-tests --test-threads=1 subgroup_staged matrix_scanned staged_tile > $OUT/multisplit-tests.txt 2>&1 || echo "tests rc $?"
grep -E "test result|FAILED|panicked" $OUT/multisplit-tests.txt || true
echo "tests $(( $(date +%s) - s )) s"
for s2 in 24 26; do /tmp/bench-base multisplit --sizes $s2 --ms 2,3,4,8,16,32,256 --fns glsl,bits --paths auto --reps 20 > $OUT/base-$s2.txt 2>&1 || echo "base rc $?"; done
echo "base $(( $(date +%s) - s )) s"
TESTS= VKALGO_BENCH=/tmp/bench-final SIZES="24 26" MS="2 3 4 8 16 32 256" bash bench/gpu_multisplit.sh --fns glsl,bits --paths auto > $OUT/final.txt 2>&1 || echo "final rc $?"
echo "final $(( $(date +%s) - s )) s"
grep -c "| NO |" $OUT/vkalgo-multisplit.txt $OUT/base-*.txt || true
tail -40 $OUT/multisplit-table.md
