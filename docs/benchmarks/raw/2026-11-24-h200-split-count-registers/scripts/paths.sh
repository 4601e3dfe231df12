set -e
. bench/gpu_setup.sh > $OUT/setup.txt 2>&1
for v in new2; do xz -dc .vx/bench-$v.xz > /tmp/bench-$v; chmod +x /tmp/bench-$v; done
xz -dc .vx/split-tests.xz > /tmp/split-tests; chmod +x /tmp/split-tests
s=$(date +%s)
VKALGO_TEST_NO_VALIDATION=1 timeout 330 /tmp/split-tests --test-threads=1 > $OUT/multisplit-tests.txt 2>&1 || echo "tests rc $?"
grep -E "test result|FAILED|panicked" $OUT/multisplit-tests.txt || true
echo "tests $(( $(date +%s) - s )) s"
for sz in 24 26; do
/tmp/bench-new2 multisplit --sizes $sz --ms 3,4,5,6,8,12 --types keys --fns glsl --paths direct,substaged --reps 20 > $OUT/keys-$sz.txt 2>&1 || echo "rc $?"
/tmp/bench-new2 multisplit --sizes $sz --ms 8,12,16 --types keys --fns glsl,bits --paths onesweep --reps 20 >> $OUT/keys-$sz.txt 2>&1 || echo "rc $?"
/tmp/bench-new2 multisplit --sizes $sz --ms 16 --types pairs --fns glsl --paths auto --reps 20 >> $OUT/keys-$sz.txt 2>&1 || echo "rc $?"
echo "size $sz $(( $(date +%s) - s )) s"
done
grep -c "| NO |" $OUT/keys-*.txt || true
grep -hE "^\| (keys|pairs) \| (glsl|bits) " $OUT/keys-*.txt
