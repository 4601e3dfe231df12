for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
cd .vx
A="multisplit --sizes 24,26 --ms 2,3,8,32,256,1024,4096 --fns splitters --reps 10"
timeout 90 ./bench-old $A > $OUT/auto-old-1.txt 2>&1
timeout 90 ./bench $A > $OUT/auto-new-1.txt 2>&1
timeout 90 ./bench-old $A > $OUT/auto-old-2.txt 2>&1
timeout 90 ./bench $A > $OUT/auto-new-2.txt 2>&1
B="multisplit --sizes 24,26 --ms 8,256,1024,4096 --fns splitters --paths onesweep --reps 10"
timeout 60 ./bench-ro $B > $OUT/os-ro.txt 2>&1
timeout 60 ./bench $B > $OUT/os-new.txt 2>&1
S="set --cases sparse,dense,clustered --reps 10"
for r in 1 2; do
  timeout 60 ./bench-old $S > $OUT/set-old-$r.txt 2>&1
  timeout 60 ./bench $S > $OUT/set-new-$r.txt 2>&1
done
python3 - <<'PY'
import os
out=os.environ['OUT']
rows={}
for name in sorted(os.listdir(out)):
    if not (name.startswith('auto-') or name.startswith('os-')): continue
    for line in open(os.path.join(out,name)):
        c=[x.strip() for x in line.split('|')]
        if len(c)>10 and c[1] in('keys','pairs') and c[2]=='splitters':
            rows.setdefault((name[:2],c[1],int(c[4]),c[5]),[]).append(f"{name[:-4].split('-',1)[1]}={c[6]}({c[3]},{c[10]})")
for k in sorted(rows): print('|',' | '.join(map(str,k)),'|',' '.join(rows[k]),'|')
for name in sorted(os.listdir(out)):
    if not name.startswith('set-'): continue
    for line in open(os.path.join(out,name)):
        if line.startswith('RESULT') and ('filter' in line or 'contains' in line or 'to_array' in line):
            print(name, line.strip())
PY
