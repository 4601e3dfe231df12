set -e
. bench/gpu_setup.sh > $OUT/setup.txt 2>&1
for v in base count new; do xz -dc .vx/bench-$v.xz > /tmp/bench-$v; chmod +x /tmp/bench-$v; done
xz -dc .vx/split-tests.xz > /tmp/split-tests; chmod +x /tmp/split-tests
s=$(date +%s)
VKALGO_TEST_NO_VALIDATION=1 timeout 200 /tmp/split-tests --test-threads=1 > $OUT/multisplit-tests.txt 2>&1 || echo "tests rc $?"
grep -E "test result|FAILED|panicked" $OUT/multisplit-tests.txt || true
echo "tests $(( $(date +%s) - s )) s"
for r in 1 2; do for v in base count new; do
  timeout 100 /tmp/bench-$v multisplit --sizes 24,26 --ms 2,3,4,8,16 --types keys,pairs --fns glsl --paths auto --reps 20 > $OUT/run-$v-$r.txt 2>&1 || echo "rc $? $v $r"
  grep RESULT $OUT/run-$v-$r.txt | sed "s/^RESULT/RESULT\t$v/" >> $OUT/ab.txt
  grep -c "| NO |" $OUT/run-$v-$r.txt || true
  echo "round $r $v $(( $(date +%s) - s )) s"
done; done
/tmp/bench-new multisplit --sizes 24,26 --ms 8,16,32 --types keys --fns glsl --paths direct,substaged,onesweep --reps 20 > $OUT/keys-paths.txt 2>&1 || echo "rc $? keys-paths"
grep -c "| NO |" $OUT/keys-paths.txt || true
grep -E "^\| keys" $OUT/keys-paths.txt
awk -F'\t' '$4 ~ /multisplit/ {k=$4" "$6" "$5" "$2; s[k]+=$7; c[k]++} END {for (k in s) printf "%s %.4f\n", k, s[k]/c[k]}' $OUT/ab.txt | sort
