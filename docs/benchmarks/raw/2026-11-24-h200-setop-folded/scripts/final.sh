set -u
. bench/gpu_setup.sh >/dev/null 2>&1
cd .vx && xz -d *.xz && chmod +x bench-* *-tests && cd ..
for t in merge scan; do VKALGO_TEST_NO_VALIDATION=1 timeout 200 .vx/$t-tests --test-threads=1 > $OUT/$t-tests.txt 2>&1; echo "$t tests rc=$?"; tail -2 $OUT/$t-tests.txt; done
VKALGO_BENCH=.vx/bench-final SIZES="20 23 26" SET_SIZES="20 24" bash bench/gpu_merge.sh --reps 20 > $OUT/log.txt 2>&1
cp $OUT/merge-table.md $OUT/final-table.md
cat $OUT/final-table.md
