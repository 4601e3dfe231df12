for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
cd .vx
T=512x7,512x8,256x8,256x12,256x16,128x16,512x4,1024x4
for r in 1 2; do
  for b in exact mvec; do
    for z in 23 26; do timeout 60 ./bench-$b merge --sizes $z --set-sizes x --types keys --tuning $T --reps 20 2>&1 | grep "^| merge_keys" | sed "s/^/$b-$r /" >> $OUT/m.txt; done
  done
done
python3 - <<'PY'
import os
out=os.environ['OUT']
rows={}
for line in open(os.path.join(out,'m.txt')):
    tag,rest=line.split(' ',1)
    c=[x.strip() for x in rest.split('|')]
    rows.setdefault((c[3],c[2]),{}).setdefault(tag.split('-')[0],[]).append(c[4]+('' if c[8]=='yes' else '(NO)'))
print('| N | tuning | exact (HEAD) ms | mvec ms |')
for k in sorted(rows):
    print('|',k[0],'|',k[1],'|',' '.join(rows[k].get('exact',[])),'|',' '.join(rows[k].get('mvec',[])),'|')
PY
