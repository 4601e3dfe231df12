set -e
. bench/gpu_setup.sh
xz -dc .vx/bench-exp.xz > /tmp/bench; chmod +x /tmp/bench
VKALGO_PIPELINE_STATS=1 /tmp/bench multisplit --sizes 26 --ms 8,32 --types keys,pairs --fns glsl --paths staged --reps 3 > $OUT/stats.txt 2>&1 || true
/tmp/bench multisplit --sizes 24,26 --ms 4,5,6,8,12,16,32,64,128,256 --types keys,pairs --fns glsl --paths staged,onesweep,direct --reps 20 > $OUT/paths.txt 2>&1 || tail -3 $OUT/paths.txt
for t in 4 12 16; do
/tmp/bench multisplit --sizes 26 --ms 8,32,256 --types keys,pairs --fns glsl --paths staged --tile-items $t --reps 20 | grep RESULT | sed "s/glsl_staged/staged_t$t/" >> $OUT/items.txt || true
done
cat $OUT/paths.txt $OUT/items.txt | grep RESULT | awk -F'\t' '$3 ~ /multisplit/ {print $3, $4, $5, $6}' | sort -k1,1 -k3,3n -k4,4n
