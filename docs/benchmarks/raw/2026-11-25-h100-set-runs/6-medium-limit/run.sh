# Command 6: PAIR_MEDIUM_VALUES (glsl/set/set_common.glsl) at 2048 (base), 3072 and 4096, each
# build's vkalgo-bench alternated twice, then the set tests of the 4096 build and its
# clustered pass times.
VKALGO_TEST_NO_VALIDATION=1 .vx/set-tests-m4096 --test-threads=1 > $OUT/set_tests_m4096.txt
for r in 1 2; do for v in base m3072 m4096; do
  .vx/bench-$v set --log2n 24 --cases sparse,dense,clustered --reps 10 > $OUT/$v-$r.txt
done; done
.vx/bench-m4096 set --log2n 24 --cases clustered --reps 10 --pass-times > $OUT/m4096-pass-times.txt
