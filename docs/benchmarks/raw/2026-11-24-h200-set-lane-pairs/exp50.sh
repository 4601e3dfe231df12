set -e
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
xz -dc .vx/bench-lane.xz > /tmp/bench; chmod +x /tmp/bench
xz -dc .vx/set-tests.xz > /tmp/set-tests; chmod +x /tmp/set-tests
VKALGO_SET_LANE_PAIRS=1 /tmp/set-tests --test-threads=1 2>&1 | grep -E "test result|FAILED|panicked" | head
for r in 1 2; do
 for v in warp lane; do
  if [ $v = lane ]; then export VKALGO_SET_LANE_PAIRS=1; else unset VKALGO_SET_LANE_PAIRS; fi
  /tmp/bench set --log2n 24 --reps 10 --cases sparse,clustered | grep RESULT | sed "s/^RESULT/RESULT\t$v/" >> $OUT/ab.txt
 done
done
unset VKALGO_SET_LANE_PAIRS
grep -i card $OUT/ab.txt | awk -F'\t' '{k=$4" "$5" "$2; s[k]+=$7; c[k]++} END {for (k in s) printf "%s %.4f\n", k, s[k]/c[k]}' | sort
