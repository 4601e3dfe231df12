for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
cd .vx
export VKALGO_TEST_NO_VALIDATION=1
(time timeout 330 ./split-tests --test-threads=1) > $OUT/split-tests.txt 2>&1; grep "test result" $OUT/split-tests.txt
A="multisplit --sizes 24,26 --ms 2,3,8,32,64 --types keys,pairs --fns splitters --paths auto --reps 10"
for r in 1 2; do
  for b in one exact; do timeout 60 ./bench-$b $A > $OUT/sp-$b-$r.txt 2>&1; done
done
timeout 100 ./bench-one merge --sizes 23,26 --set-sizes x --types keys --tuning 512x7,512x5,512x9,256x11,256x13,256x15,256x7,1024x3,1024x5,128x15 --reps 10 > $OUT/merge-tunings.txt 2>&1
python3 - <<'PY'
import os
out=os.environ['OUT']
rows={}
for name in sorted(os.listdir(out)):
    if not name.startswith('sp-'): continue
    for line in open(os.path.join(out,name)):
        c=[x.strip() for x in line.split('|')]
        if len(c)>10 and c[1] in('keys','pairs') and c[2]=='splitters':
            rows.setdefault((c[1],int(c[4]),c[5],c[3]),{})[name[3:-4]]=(c[6],c[10])
print('| type | m | N | path | runs: ms (verified) |')
for k in sorted(rows):
    print('|',' | '.join(map(str,k)),'|',' '.join(f"{n}={v[0]}{'' if v[1]=='yes' else '('+v[1]+')'}" for n,v in sorted(rows[k].items())),'|')
PY
grep "^| merge" $OUT/merge-tunings.txt
