#!/usr/bin/env bash
# Interpolation-guided first search: A/B base (c8754b6) / prev (97f3a91) / new, then the final set benchmark (tests, CUDA, vkalgo, CRoaring) with the new build.
set -u
tar -xJf .var/exp.tar.xz
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VKALGO_TEST_NO_VALIDATION=1
for r in 1 2; do
  for v in base prev new; do
    [ $v = base ] && [ $r = 2 ] && continue
    timeout 90 .vx/bench-$v set --cases clustered,sparse --reps 10 --pass-times > $OUT/ab-$v-$r.txt 2>&1
  done
done
python3 - > $OUT/ab-table.md <<'PY'
import re,os
out=os.environ.get('OUT','/tmp/out')
rows={}
for v in ['base','prev','new']:
    for r in [1,2]:
        p=f'{out}/ab-{v}-{r}.txt'
        if not os.path.exists(p): continue
        cur=None
        for line in open(p):
            m=re.match(r'^(\w+)\s+(sparse|dense|clustered)\s+n=\d+\s+([\d.]+) ms',line)
            if m:
                cur=(m.group(2),m.group(1)); rows.setdefault(cur,{}).setdefault(v,[]).append(float(m.group(3))); continue
            m=re.match(r'^\|\s+pass \| (set_chunk_update|set_array_pairs_medium) \| ([\d.]+) ms',line)
            if m and cur and r==1 and 'reserved' in cur[1]: rows.setdefault((cur[0],cur[1]+':'+m.group(1)[4:]),{}).setdefault(v,[]).append(float(m.group(2)))
print('| case | op | base | prev | new |')
print('|---|---|---|---|---|')
for (c,o),d in rows.items():
    print(f'| {c} | {o} | '+' | '.join('/'.join(f'{x:.4f}' for x in d.get(v,[])) for v in ['base','prev','new'])+' |')
PY
grep -E "clustered \| (and|or|andnot|xor)(_reserved|_cardinality)? \||sparse \| (and|or)_reserved \|" $OUT/ab-table.md
mkdir -p $OUT/final
OUT=$OUT/final VKALGO_BENCH=.vx/bench-new SET_TESTS=.vx/set-tests timeout 420 bash bench/gpu_set.sh --reps 10 > $OUT/final/log.txt 2>&1; echo "gpu_set rc $?"
grep "test result" $OUT/final/set_tests.txt
cat $OUT/final/table.md
