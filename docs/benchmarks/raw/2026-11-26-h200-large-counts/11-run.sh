set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
R=$OUT/filter; mkdir -p $R
for round in 1 2; do
  for b in prev new; do
    bin=.vx/bench-$b; [ $b = new ] && bin=.vx/bench
    timeout 200 $bin set --cases sparse,dense,clustered --reps 10 > $R/set-$b-$round.txt 2>&1
    echo "round $round $b: $(grep -E '^RESULT.vkalgo.set_(filter|to_array)' $R/set-$b-$round.txt | cut -f3-6 | tr '\n' ' ')"
  done
done
(VKALGO_TEST_NO_VALIDATION=1 timeout 300 .vx/set-tests --test-threads=1 --skip roaring_interchange > $R/set-tests.txt 2>&1; echo "set tests exit $?" >> $R/set-tests.txt)
tail -3 $R/set-tests.txt
