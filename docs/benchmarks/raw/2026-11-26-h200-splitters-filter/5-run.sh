for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
cd .vx
export VKALGO_TEST_NO_VALIDATION=1
S="set --cases sparse,dense,clustered --reps 10"
for b in bench-f2 bench-f4 bench; do timeout 60 ./$b $S > $OUT/set-$b.txt 2>&1; done
timeout 60 ./bench-f4 $S > $OUT/set-bench-f4-2.txt 2>&1
(time timeout 330 ./split-tests staged_tile_path --test-threads=1) > $OUT/split-tests.txt 2>&1; tail -4 $OUT/split-tests.txt
for name in set-bench-f2.txt set-bench-f4.txt set-bench-f4-2.txt set-bench.txt; do
  grep RESULT $OUT/$name | grep -E "filter|contains" | sed "s/^/$name /"
  grep -E "\| NO \|" $OUT/$name
done
