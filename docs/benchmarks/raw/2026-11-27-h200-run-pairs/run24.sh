#!/usr/bin/env bash
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
mkdir -p $OUT/r24
for round in 1 2 3; do
  for v in main rp3 rp4; do
    timeout 100 .vx/bench-$v set --log2n 24 --cases dense,clustered --reps 10 > $OUT/r24/$v-$round.txt 2>&1
  done
done
for v in main rp4; do timeout 100 .vx/bench-$v set --log2n 24 --cases dense --reps 10 --pass-times > $OUT/r24/$v-passes.txt 2>&1; done
for v in main rp4; do echo "== $v"; grep -v "^RESULT" $OUT/r24/$v-passes.txt | sed -n '/^and  /,/^or  /p'; done
VARS="main rp3 rp4" python3 .vx/cmp.py $OUT/r24/*-[123].txt | grep -v "copy_\|memory_\|contains\|filter\|to_array"
