#!/usr/bin/env bash
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
mkdir -p $OUT/r25
for round in 1 2; do
  for v in main rp4 rp5; do
    timeout 100 .vx/bench-$v set --log2n 24 --cases dense,clustered --reps 10 > $OUT/r25/$v-$round.txt 2>&1
  done
done
for v in main rp5; do timeout 100 .vx/bench-$v set --log2n 24 --cases dense --reps 10 --pass-times > $OUT/r25/$v-passes.txt 2>&1; done
for v in main rp5; do echo "== $v"; grep -v "^RESULT" $OUT/r25/$v-passes.txt | sed -n '/^and  /,/^or  /p'; done
VARS="main rp4 rp5" python3 .vx/cmp.py $OUT/r25/*-[12].txt | grep -v "copy_\|memory_\|contains\|filter\|to_array"
