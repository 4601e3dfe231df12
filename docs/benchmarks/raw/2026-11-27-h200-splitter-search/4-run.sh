for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
. bench/gpu_setup.sh >/dev/null 2>&1 || true
NVCC=${NVCC:-$(command -v nvcc || ls /usr/local/cuda*/bin/nvcc | head -1)}
$NVCC -O3 -std=c++17 -arch=sm_90 -o /tmp/multisplit_bench bench/cuda/multisplit_bench.cu > $OUT/nvcc.txt 2>&1
A="multisplit --ms 2,3 --types keys,pairs --fns glsl --reps 20"
for r in 1 2; do
  /tmp/multisplit_bench 24,26 2 > $OUT/cub-$r.txt 2>&1
  for s in 0 1 2; do
    for z in 24 26; do VKALGO_EXP_SKIP=$s timeout 60 .vx/bench-skip $A --sizes $z > $OUT/vk-skip$s-$z-$r.txt 2>&1; done
  done
done
python3 - <<'PY'
import os
out=os.environ['OUT']
rows={}
for name in sorted(os.listdir(out)):
    if not name.startswith('vk-'): continue
    v=name.split('-')[1]; r=name.split('-')[3][:-4]
    for line in open(os.path.join(out,name)):
        c=[x.strip() for x in line.split('|')]
        if len(c)>10 and c[1] in('keys','pairs') and c[2]=='glsl':
            rows.setdefault((c[1],int(c[4]),c[5],c[3]),{})[v+'-'+r]=c[6]
print('| type | m | N | path | ms (skip0 = full, skip1 = no scan, skip2 = no scan, no offsets; wrong results) |')
for k in sorted(rows):
    print('|',' | '.join(map(str,k)),'|',' '.join(f"{n}={v}" for n,v in sorted(rows[k].items())),'|')
PY
grep -h -i "partition\|^RESULT" $OUT/cub-*.txt | head -20
