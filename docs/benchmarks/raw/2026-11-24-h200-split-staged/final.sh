set -e
. bench/gpu_setup.sh
for v in old new; do xz -dc .vx/bench-$v.xz > /tmp/bench-$v 2>/dev/null || xz -dc .vx/bench.xz > /tmp/bench-$v; chmod +x /tmp/bench-$v; done
xz -dc .vx/split-tests.xz > /tmp/split-tests; chmod +x /tmp/split-tests
for r in 1 2; do for v in old new; do
  /tmp/bench-$v multisplit --sizes 24,26 --ms 3,4,8,16,32,64 --types pairs --fns glsl,bits --paths auto,staged --reps 20 | grep RESULT | sed "s/^RESULT/RESULT\t$v/" >> $OUT/ab.txt
done; done
TESTS=/tmp/split-tests VKALGO_BENCH=/tmp/bench-new SIZES="24 26" MS="2 3 4 8 16 32 256" bash bench/gpu_multisplit.sh --fns glsl,bits --paths auto > $OUT/final.txt 2>&1 || echo "final rc $?"
grep -E "test result|FAILED" $OUT/multisplit-tests.txt || true
awk -F'\t' '$4 ~ /multisplit/ {k=$4" "$5" "$2" "$6; s[k]+=$7; c[k]++} END {for (k in s) printf "%s %.4f\n", k, s[k]/c[k]}' $OUT/ab.txt | sort
tail -40 $OUT/multisplit-table.md
