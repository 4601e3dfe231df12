set -u
tar -xJf .var/exp.tar.xz
export OUT=${OUT:-/tmp/out}
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
VKALGO_TEST_NO_VALIDATION=1 .vx/set-tests --test-threads=1 > $OUT/set_tests_first.txt 2>&1; echo "tests rc=$?"; tail -3 $OUT/set_tests_first.txt
for r in 1 2; do for v in base new; do
  .vx/bench-$v set --log2n 24 --cases sparse,dense,clustered --reps 10 > $OUT/ab-$v-$r.txt 2>&1 || echo "$v $r failed"
done; done
VKALGO_BENCH=.vx/bench-new SET_TESTS=none SET_CASES=sparse,dense,clustered bash bench/gpu_set.sh --reps 10 > $OUT/final.txt 2>&1; echo "final rc=$?"
for v in base new; do echo "== $v"; grep -h -E '^(build_sorted|and|or|andnot|xor)' $OUT/ab-$v-*.txt | grep sparse | awk '{print $1, $4}' | sort | awk '{a[$1]=a[$1]" "$2} END {for (k in a) print k, a[k]}' | sort; done
grep '^| set_' $OUT/final.txt | grep -E 'thrust|flat_bitmap|croaring' | head -30
