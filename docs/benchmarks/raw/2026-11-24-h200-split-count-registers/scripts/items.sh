set -e
. bench/gpu_setup.sh > $OUT/setup.txt 2>&1
xz -dc .vx/bench-new3.xz > /tmp/bench-new3; chmod +x /tmp/bench-new3
for r in 1 2; do
for t in 4 8 12 16; do
  /tmp/bench-new3 multisplit --sizes 24,26 --ms 3,4 --types keys --fns glsl --paths direct --tile-items $t --reps 20 | grep -E "^\| keys" | sed "s/^/t$t r$r /" >> $OUT/items.txt || true
done
for t in 4 6 8; do
  /tmp/bench-new3 multisplit --sizes 24,26 --ms 8 --types pairs --fns glsl --paths substaged --tile-items $t --reps 20 | grep -E "^\| pairs" | sed "s/^/t$t r$r /" >> $OUT/items.txt || true
  /tmp/bench-new3 multisplit --sizes 24,26 --ms 8 --types keys --fns glsl --paths substaged --tile-items $t --reps 20 | grep -E "^\| keys" | sed "s/^/t$t r$r /" >> $OUT/items.txt || true
done
done
sort -k5,5 -k7,7n -k9,9 -k1,1 $OUT/items.txt | awk '{print $1, $2, $4, $8, $10, $12, $13, $20}'
