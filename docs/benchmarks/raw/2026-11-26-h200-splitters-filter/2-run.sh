for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
cd .vx
A="multisplit --sizes 24,26 --ms 2,4,8,16,32,64,128,256,1024,4096 --fns splitters --paths auto,direct,staged,substaged,onesweep,global --reps 10"
timeout 250 ./bench-p1 $A > $OUT/sweep-index.txt 2>&1
timeout 250 ./bench-p65536 $A > $OUT/sweep-plain.txt 2>&1
python3 - <<'PY'
import os
out=os.environ['OUT']
rows={}
for name in ['sweep-index','sweep-plain']:
    for line in open(os.path.join(out,name+'.txt')):
        c=[x.strip() for x in line.split('|')]
        if len(c)>10 and c[1] in('keys','pairs'):
            if c[10]!='yes': print('NOT VERIFIED',name,line.strip())
            rows.setdefault((c[1],int(c[4]),c[5]),[]).append((name[6:],c[3],float(c[6])))
print('| type | m | N | index: path=ms | plain: path=ms |')
for k in sorted(rows):
    cells=[]
    for b in ['index','plain']:
        xs=[(p,ms) for (n,p,ms) in rows[k] if n==b]
        best=min(ms for p,ms in xs)
        cells.append(' '.join(f"{'auto:' if i==0 else ''}{p}={ms:.4f}{'*' if ms==best else ''}" for i,(p,ms) in enumerate(xs)))
    print('|',k[0],'|',k[1],'|',k[2],'|',cells[0],'|',cells[1],'|')
PY
