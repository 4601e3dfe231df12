set -e
. bench/gpu_setup.sh > $OUT/setup.txt 2>&1
for v in final new3; do xz -dc .vx/bench-$v.xz > /tmp/bench-$v; chmod +x /tmp/bench-$v; done
xz -dc .vx/split-tests.xz > /tmp/split-tests; chmod +x /tmp/split-tests
s=$(date +%s)
VKALGO_TEST_NO_VALIDATION=1 timeout 330 /tmp/split-tests --test-threads=1 > $OUT/multisplit-tests.txt 2>&1 || echo "tests rc $?"
grep -E "test result|FAILED|panicked" $OUT/multisplit-tests.txt || true
echo "tests $(( $(date +%s) - s )) s"
for r in 1 2; do for v in final new3; do
  timeout 100 /tmp/bench-$v multisplit --sizes 24,26 --ms 2,3,4,8 --types keys,pairs --fns glsl --paths auto --reps 20 > $OUT/run-$v-$r.txt 2>&1 || echo "rc $? $v $r"
  grep RESULT $OUT/run-$v-$r.txt | sed "s/^RESULT/RESULT\t$v/" >> $OUT/ab.txt
  grep -c "| NO |" $OUT/run-$v-$r.txt || true
done; done
echo "ab $(( $(date +%s) - s )) s"
TESTS= VKALGO_BENCH=/tmp/bench-new3 SIZES="24 26" MS="2 3 4 8 16 32 256" bash bench/gpu_multisplit.sh --fns glsl,bits --paths auto > $OUT/final.txt 2>&1 || echo "final rc $?"
echo "final $(( $(date +%s) - s )) s"
grep -c "| NO |" $OUT/vkalgo-multisplit.txt || true
awk -F'\t' '$4 ~ /multisplit/ && $5 !~ /sort_/ {k=$4" "$6" "$5" "$2; s[k]+=$7; c[k]++} END {for (k in s) printf "%s %.4f\n", k, s[k]/c[k]}' $OUT/ab.txt | sort
tail -30 $OUT/multisplit-table.md
