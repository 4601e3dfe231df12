set -e
. bench/gpu_setup.sh > $OUT/setup.txt 2>&1
for v in old new; do xz -dc .vx/bench-$v.xz > /tmp/bench-$v; chmod +x /tmp/bench-$v; done
xz -dc .vx/split-tests.xz > /tmp/split-tests; chmod +x /tmp/split-tests
VKALGO_TEST_NO_VALIDATION=1 /tmp/split-tests --test-threads=1 > $OUT/multisplit-tests.txt 2>&1 || echo "tests rc $?"
grep -E "test result|FAILED|panicked" $OUT/multisplit-tests.txt || true
for r in 1 2; do for v in old new; do
  /tmp/bench-$v multisplit --sizes 24,26 --ms 3,4,6,8,12,16 --types pairs --fns glsl,bits --paths auto --reps 20 | grep RESULT | sed "s/^RESULT/RESULT\t$v/" >> $OUT/ab.txt
done; done
/tmp/bench-new multisplit --sizes 24,26 --ms 4,8 --types pairs --fns ids --paths direct,staged,substaged --reps 20 | grep RESULT > $OUT/ids.txt
/tmp/bench-new multisplit --sizes 24,26 --ms 4,8 --types pairs --fns ids --paths substaged --tile-items 8 --reps 20 | grep RESULT | sed 's/substaged/substaged8/' >> $OUT/ids.txt
awk -F'\t' '$4 ~ /multisplit/ {k=$4" "$5" "$2" "$6; s[k]+=$7; c[k]++} END {for (k in s) printf "%s %.4f\n", k, s[k]/c[k]}' $OUT/ab.txt | sort
awk -F'\t' '$3 ~ /multisplit/ {print $3, $4, $5, $6}' $OUT/ids.txt
