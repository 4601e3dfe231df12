for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
cd .vx
export VKALGO_TEST_NO_VALIDATION=1
(time timeout 200 ./split-tests splitter onesweep bucket_functions --test-threads=1) > $OUT/split-tests.txt 2>&1; tail -3 $OUT/split-tests.txt
A="multisplit --sizes 24,26 --ms 8,32,256,1024,4096 --types keys,pairs --fns splitters --paths onesweep,auto --reps 10"
for r in 1 2; do
  for b in head one bf; do timeout 100 ./bench-$b $A > $OUT/sp-$b-$r.txt 2>&1; done
done
timeout 60 ./bench-head multisplit --sizes 24,26 --ms 8,32,256,1024,4096 --fns glsl --reps 10 > $OUT/glsl.txt 2>&1
python3 - <<'PY'
import os
out=os.environ['OUT']
rows={}
for name in sorted(os.listdir(out)):
    if not (name.startswith('sp-') or name=='glsl.txt'): continue
    for line in open(os.path.join(out,name)):
        c=[x.strip() for x in line.split('|')]
        if len(c)>10 and c[1] in('keys','pairs') and c[2]!='sort_topbits':
            if c[2]=='glsl': rows.setdefault((c[1],int(c[4]),c[5],'glsl '+c[3]),{})['x']=(c[6],c[10])
            else: rows.setdefault((c[1],int(c[4]),c[5],c[3]),{})[name[3:-4]]=(c[6],c[10])
print('| type | m | N | path | runs: ms (verified) |')
for k in sorted(rows):
    print('|',' | '.join(map(str,k)),'|',' '.join(f"{n}={v[0]}{'' if v[1]=='yes' else '('+v[1]+')'}" for n,v in sorted(rows[k].items())),'|')
PY
