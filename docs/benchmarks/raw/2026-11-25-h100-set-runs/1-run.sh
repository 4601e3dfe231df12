set -u
tar -xJf .var/exp.tar.xz
export OUT=${OUT:-/tmp/out}
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
for r in 1 2; do for v in base new; do
  start=$(date +%s)
  .vx/bench-$v set --log2n 24 --cases sparse,dense,clustered --reps 10 > $OUT/ab-$v-$r.txt 2>&1
  echo "$v $r $(( $(date +%s) - start ))s"
done; done
VKALGO_BENCH=.vx/bench-new SET_TESTS=.vx/set-tests SET_CASES=sparse,dense,clustered bash bench/gpu_set.sh --reps 10 > $OUT/final.txt 2>&1; echo "final rc=$?"
grep -h 'build_sorted' $OUT/ab-*.txt | grep -v RESULT
tail -40 $OUT/final.txt
