for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
cd .vx
export VKALGO_TEST_NO_VALIDATION=1
(time timeout 250 ./split-tests --test-threads=1) > $OUT/split-tests.txt 2>&1; grep -E "^test |test result" $OUT/split-tests.txt | grep -v " ok$"; tail -5 $OUT/split-tests.txt
(time timeout 60 ./set-tests filter record_layer model --test-threads=1) > $OUT/set-tests.txt 2>&1; tail -5 $OUT/set-tests.txt
A="multisplit --sizes 24,26 --ms 2,3,8,32,256,1024,4096 --fns splitters --reps 10"
timeout 90 ./bench-old $A > $OUT/auto-old.txt 2>&1
timeout 90 ./bench $A > $OUT/auto-new.txt 2>&1
timeout 40 ./bench multisplit --sizes 24,26 --ms 8,256 --fns splitters --paths onesweep --reps 10 > $OUT/os-new.txt 2>&1
S="set --cases sparse,dense,clustered --reps 10"
timeout 60 ./bench-old $S > $OUT/set-old.txt 2>&1
timeout 60 ./bench $S > $OUT/set-new.txt 2>&1
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
for name in ['set-old.txt','set-new.txt']:
    for line in open(os.path.join(out,name)):
        if line.startswith('RESULT') and ('filter' in line or 'contains' in line):
            print(name, line.strip())
        if 'NO' in line.split('|')[-2:-1]: print('UNVERIFIED', line.strip())
PY
