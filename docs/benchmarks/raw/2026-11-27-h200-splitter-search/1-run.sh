for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
cd .vx
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/gpu.txt
A="multisplit --sizes 24,26 --ms 8,256,4096 --types keys,pairs --fns splitters --paths onesweep,auto --reps 10"
for r in 1 2; do
  for b in head keyref f3c; do timeout 100 ./bench-$b $A > $OUT/sp-$b-$r.txt 2>&1; done
done
timeout 120 ./bench-head multisplit --sizes 24,26 --ms 2,3,8 --fns glsl --reps 10 --pass-times > $OUT/passes.txt 2>&1
python3 - <<'PY'
import os
out=os.environ['OUT']
rows={}
for name in sorted(os.listdir(out)):
    if not name.startswith('sp-'): continue
    for line in open(os.path.join(out,name)):
        c=[x.strip() for x in line.split('|')]
        if len(c)>10 and c[1] in('keys','pairs'):
            rows.setdefault((c[1],c[2],int(c[4]),c[5],c[3].split()[0]),{})[name[3:-4]]=(c[6],c[10])
print('| type | fn | m | N | path | runs: ms (verified) |')
for k in sorted(rows):
    print('|',' | '.join(map(str,k)),'|',' '.join(f"{n}={v[0]}({v[1]})" for n,v in sorted(rows[k].items())),'|')
PY
grep -v "^RESULT" $OUT/passes.txt | tail -60
