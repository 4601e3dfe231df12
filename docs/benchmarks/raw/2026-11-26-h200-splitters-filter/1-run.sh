for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
cd .vx
export VKALGO_TEST_NO_VALIDATION=1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/gpu.txt
(time timeout 150 ./split-tests --test-threads=1) > $OUT/split-tests.txt 2>&1; tail -4 $OUT/split-tests.txt
(time timeout 60 ./set-tests filter record_layer --test-threads=1) > $OUT/set-tests.txt 2>&1; tail -4 $OUT/set-tests.txt
for r in 1 2; do
  timeout 100 ./bench-old multisplit --sizes 24,26 --ms 2,8,64,256,1024,4096 --fns splitters --reps 10 > $OUT/split-old-$r.txt 2>&1
  timeout 100 ./bench multisplit --sizes 24,26 --ms 2,8,64,256,1024,4096 --fns splitters --reps 10 > $OUT/split-new-$r.txt 2>&1
done
timeout 60 ./bench multisplit --sizes 24,26 --ms 2,8,64,256,1024,4096 --fns glsl --reps 10 > $OUT/split-glsl.txt 2>&1
python3 - <<'PY'
import os,re
out=os.environ['OUT']
rows={}
for name in sorted(os.listdir(out)):
    if not name.startswith('split-') or 'tests' in name: continue
    for line in open(os.path.join(out,name)):
        c=[x.strip() for x in line.split('|')]
        if len(c)>10 and c[1] in('keys','pairs') and c[2] in ('splitters','glsl'):
            rows.setdefault((c[1],c[2],int(c[4]),c[5]),{})[name[6:-4]]=(c[6],c[3],c[10])
print('| type | fn | m | N | runs: ms (path, verified) |')
for k in sorted(rows):
    print('|',k[0],'|',k[1],'|',k[2],'|',k[3],'|',' '.join(f"{n}={v[0]}({v[1]},{v[2]})" for n,v in sorted(rows[k].items())),'|')
PY
