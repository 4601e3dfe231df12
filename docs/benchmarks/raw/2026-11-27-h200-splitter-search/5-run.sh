for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
$NVCC -O3 -std=c++17 -arch=sm_90 -o /tmp/multisplit_bench bench/cuda/multisplit_bench.cu > $OUT/nvcc.txt 2>&1
/tmp/multisplit_bench 24,26 2,3,32 > $OUT/cub.txt 2>&1
for r in 1 2; do
  for t in keys pairs; do for m in 2 3 32; do for z in 24 26; do for s in 0 1 2; do
    VKALGO_EXP_SKIP=$s timeout 60 .vx/bench-skip multisplit --ms $m --types $t --fns glsl --reps 20 --sizes $z 2>&1 | grep "^| $t | glsl" | sed "s/^/skip$s-$r /" >> $OUT/vk.txt
  done; done; done; done
done
python3 - <<'PY'
import os,re
out=os.environ['OUT']
rows={}
for line in open(os.path.join(out,'vk.txt')):
    tag,rest=line.split(' ',1)
    c=[x.strip() for x in rest.split('|')]
    rows.setdefault((c[1],int(c[4]),c[5],c[3]),{}).setdefault(tag.split('-')[0],[]).append(c[6]+('' if c[10]=='yes' else '(NO)'))
cub={}
for line in open(os.path.join(out,'cub.txt')):
    if line.startswith('RESULT'):
        f=line.split('\t'); cub[(f[2],f[3],int(f[4]))]=float(f[5])
print('| type | m | N | path | full | no scan | no scan, no offsets | CUB partition | CUB reduced-bit sort |')
for k in sorted(rows):
    n=int(2**int(k[2][2:]))
    p=cub.get((f"multisplit_{k[0]}_m{k[1]}",'partition_if',n),'-'); s=cub.get((f"multisplit_{k[0]}_m{k[1]}",'reduced_bit_sort',n),'-')
    print('|',' | '.join(map(str,k)),'|',' | '.join(' '.join(rows[k].get(v,[])) for v in ('skip0','skip1','skip2')),'|',p,'|',s,'|')
PY
