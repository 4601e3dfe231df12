set -u
tar -xJf .var/exp.tar.xz
export OUT=${OUT:-/tmp/out}
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
VKALGO_TEST_NO_VALIDATION=1 .vx/set-tests --test-threads=1 > $OUT/set_tests.txt 2>&1; echo "tests rc=$?"; tail -2 $OUT/set_tests.txt
for r in 1 2; do for v in base copy4 copy8 lift; do
  .vx/bench-$v set --log2n 24 --cases sparse,clustered --reps 10 > $OUT/$v-$r.txt 2>&1 || echo "$v $r failed"
done; done
python3 - <<'PY'
import glob,os,collections
out=os.environ.get('OUT','/tmp/out')
rows=collections.defaultdict(dict)
for f in sorted(glob.glob(out+'/*-[12].txt')):
    v=os.path.basename(f)[:-4]
    for l in open(f):
        p=l.split('\t')
        if len(p)>5 and p[0]=='RESULT' and p[1]=='vkalgo':
            rows[(p[2],p[3])][v]=float(p[5])
vs=sorted({v for r in rows.values() for v in r})
print('| op | case | '+' | '.join(vs)+' |')
for k in sorted(rows):
    print('| %s | %s | '%k+' | '.join('%.4f'%rows[k].get(v,0) for v in vs)+' |')
PY
