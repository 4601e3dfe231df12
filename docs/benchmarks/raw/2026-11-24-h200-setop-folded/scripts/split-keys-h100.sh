set -u
. bench/gpu_setup.sh >/dev/null 2>&1
cd .vx && xz -d *.xz && chmod +x bench-* *-tests && cd ..
VKALGO_TEST_NO_VALIDATION=1 timeout 300 .vx/split-tests --test-threads=1 > $OUT/split-tests.txt 2>&1; echo "split tests rc=$?"; tail -2 $OUT/split-tests.txt
for r in 1 2; do for b in base final; do
  .vx/bench-$b multisplit --sizes 24,26 --ms 2,4,8,16 --types keys,pairs --fns bits --paths auto --reps 20 > $OUT/ab-$b-$r.txt 2>&1
done; done
for r in 1 2; do for b in base final; do grep -E "^\| (keys|pairs) \| bits" $OUT/ab-$b-$r.txt | sed "s/^/$b$r /"; done; done | awk -F'|' '{print $1,$2,$4,$5,$6,$7,$11}' | sort -k2,2 -k5,5n -k6,6 -s
