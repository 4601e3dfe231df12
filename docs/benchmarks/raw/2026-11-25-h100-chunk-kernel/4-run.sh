#!/usr/bin/env bash
# Galloping shares + vector expansion: GPU tests, A/B base vs new (512 / 1024), clock breakdown.
set -u
tar -xJf .var/exp.tar.xz
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VKALGO_TEST_NO_VALIDATION=1
for w in 512 1024; do
VKALGO_EXP_UPDATE_WG=$w timeout 150 .vx/set-tests --test-threads=1 > $OUT/tests$w.txt 2>&1; echo "tests $w rc $? $(grep 'test result' $OUT/tests$w.txt)"
done
for r in 1 2; do
  timeout 90 .vx/bench-base set --cases clustered,sparse,dense --reps 10 --pass-times > $OUT/base-$r.txt 2>&1
  VKALGO_EXP_UPDATE_WG=512 timeout 90 .vx/bench-new set --cases clustered,sparse,dense --reps 10 --pass-times > $OUT/n512-$r.txt 2>&1
  VKALGO_EXP_UPDATE_WG=1024 timeout 90 .vx/bench-new set --cases clustered,sparse,dense --reps 10 --pass-times > $OUT/n1024-$r.txt 2>&1
done
VKALGO_SORT_CLOCK=1 VKALGO_EXP_CLOCK=1 VKALGO_EXP_UPDATE_WG=512 timeout 60 .vx/bench-clock set --cases clustered --reps 3 > $OUT/clock512.txt 2>&1
grep CLOCK $OUT/clock512.txt | head -8
python3 - <<'PY'
import re,os
out=os.environ.get('OUT','/tmp/out')
rows={}
for v in ['base','n512','n1024']:
    for r in [1,2]:
        for line in open(f'{out}/{v}-{r}.txt'):
            m=re.match(r'^(\w+)\s+(sparse|dense|clustered)\s+n=\d+\s+([\d.]+) ms',line)
            if m: rows.setdefault((m.group(2),m.group(1)),{}).setdefault(v,[]).append(float(m.group(3)))
print('| case | op | base | n512 | n1024 |')
for (c,o),d in rows.items():
    print(f'| {c} | {o} | '+' | '.join('/'.join(f'{x:.4f}' for x in d.get(v,[])) for v in ['base','n512','n1024'])+' |')
PY
