#!/usr/bin/env bash
# Bitmap-pair grid from the operands' bitmap pools + both lists' loads issued together: GPU tests, A/B prev (5d67b00) vs new.
set -u
tar -xJf .var/exp.tar.xz
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VKALGO_TEST_NO_VALIDATION=1
timeout 150 .vx/set-tests --test-threads=1 > $OUT/tests.txt 2>&1; echo "tests rc $? $(grep 'test result' $OUT/tests.txt)"
for r in 1 2; do
  for v in prev new; do
  timeout 90 .vx/bench-$v set --cases clustered,sparse,dense --reps 10 --pass-times > $OUT/$v-$r.txt 2>&1
  done
done
python3 - <<'PY'
import re,os
out=os.environ.get('OUT','/tmp/out')
rows={}
for v in ['prev','new']:
    for r in [1,2]:
        cur=None
        for line in open(f'{out}/{v}-{r}.txt'):
            m=re.match(r'^(\w+)\s+(sparse|dense|clustered)\s+n=\d+\s+([\d.]+) ms',line)
            if m:
                cur=(m.group(2),m.group(1)); rows.setdefault(cur,{}).setdefault(v,[]).append(float(m.group(3))); continue
            m=re.match(r'^\|\s+pass \| (set_bitmap_pairs|set_chunk_update|set_array_pairs_medium) \| ([\d.]+) ms',line)
            if m and cur and r==1: rows.setdefault((cur[0],cur[1]+':'+m.group(1)[4:]),{}).setdefault(v,[]).append(float(m.group(2)))
print('| case | op | prev | new |')
for (c,o),d in rows.items():
    print(f'| {c} | {o} | '+' | '.join('/'.join(f'{x:.4f}' for x in d.get(v,[])) for v in ['prev','new'])+' |')
PY
