set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
R=$OUT/ab; mkdir -p $R
for round in 1 2; do
  for b in old afirst new; do
    bin=.vx/bench-$b; [ $b = new ] && bin=.vx/bench
    timeout 200 $bin set --cases sparse,dense,clustered --reps 10 > $R/set-$b-$round.txt 2>&1
    echo "round $round $b: $(grep -E '^RESULT.vkalgo.set_(to_array|filter)' $R/set-$b-$round.txt | cut -f3-6 | tr '\n' ' ')"
  done
done
for b in new; do
  bin=.vx/bench-$b; [ $b = new ] && bin=.vx/bench
  timeout 200 $bin large --threads 16 --only sets > $R/large-sets-$b.txt 2>&1
  grep -v "^RESULT" $R/large-sets-$b.txt | tail -2
done
