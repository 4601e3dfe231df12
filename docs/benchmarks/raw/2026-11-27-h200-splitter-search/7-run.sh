for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
cd .vx
export VKALGO_TEST_NO_VALIDATION=1
(time timeout 330 ./split-tests --test-threads=1) > $OUT/split-tests.txt 2>&1; grep "test result" $OUT/split-tests.txt
for r in 1 2; do
  for b in exact lin3 lin4; do
    for z in 24 26; do timeout 60 ./bench-$b multisplit --sizes $z --ms 2,3,4,8,12,16 --types keys,pairs --fns splitters --reps 10 2>&1 | grep "^| [kp].* | splitters" | sed "s/^/$b-$r /" >> $OUT/s.txt; done
  done
done
for z in 24 26; do timeout 60 ./bench-exact multisplit --sizes $z --ms 2,3,4,8,12,16 --types keys,pairs --fns glsl --reps 10 2>&1 | grep "^| [kp].* | glsl" | sed "s/^/glsl-1 /" >> $OUT/s.txt; done
python3 - <<'PY'
import os
out=os.environ['OUT']
rows={}
for line in open(os.path.join(out,'s.txt')):
    tag,rest=line.split(' ',1)
    c=[x.strip() for x in rest.split('|')]
    rows.setdefault((c[1],int(c[4]),c[5]),{}).setdefault(tag.split('-')[0],[]).append(c[6]+'('+c[3]+')'+('' if c[10]=='yes' else '(NO)'))
print('| type | m | N | exact (HEAD) | lin3 | lin4 | glsl |')
for k in sorted(rows):
    print('|',' | '.join(map(str,k)),'|',' | '.join(' '.join(rows[k].get(v,[])) for v in ('exact','lin3','lin4','glsl')),'|')
PY
