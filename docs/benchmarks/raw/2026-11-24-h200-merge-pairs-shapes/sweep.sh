set -e
. bench/gpu_setup.sh
xz -dc .vx/bench.xz > /tmp/bench; chmod +x /tmp/bench
"$NVCC" -O3 -std=c++17 -arch="$ARCH" -I bench/cuda -o /tmp/merge_bench bench/cuda/merge_bench.cu
T=512x7,512x5,512x6,512x8,512x9,384x9,384x10,256x13,256x14,1024x3,1024x4,1024x5
for r in 1 2; do
  /tmp/merge_bench merge_pairs 23 26 | tee -a $OUT/cuda.txt
  /tmp/bench merge --types pairs --sizes 23,26 --set-sizes "" --reps 20 --tuning $T | grep RESULT >> $OUT/vk.txt
done
grep -v "^#" $OUT/cuda.txt | tail -4
awk -F'\t' '{k=$3" "$4" "$5; s[k]+=$6; c[k]++} END {for (k in s) printf "%s %.4f\n", k, s[k]/c[k]}' $OUT/vk.txt | sort -k3,3n -k4,4n
