set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
R=$OUT/ab; mkdir -p $R
for round in 1 2; do
  for b in old new; do
    bin=.vx/bench; [ $b = old ] && bin=.vx/bench-old
    timeout 200 $bin set --cases sparse,dense,clustered --reps 10 > $R/set-$b-$round.txt 2>&1
    echo "round $round $b: $(grep -E '^RESULT.vkalgo.set_to_array' $R/set-$b-$round.txt | cut -f3-6 | tr '\n' ' ')"
  done
done
timeout 200 .vx/bench large --threads 16 --only sets > $R/large-sets.txt 2>&1
grep -v "^RESULT" $R/large-sets.txt | tail -4
