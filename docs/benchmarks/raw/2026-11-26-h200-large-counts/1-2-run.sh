set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
free -g | head -2
R=$OUT/large; mkdir -p $R
timeout 560 .vx/bench large --threads 16 --only split,merge,setops,mergesort,sets > $R/large.txt 2>&1
echo "exit $?" >> $R/large.txt
grep -v "^RESULT" $R/large.txt | tail -40
