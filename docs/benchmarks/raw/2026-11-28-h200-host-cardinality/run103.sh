#!/usr/bin/env bash
# Command 103: the multisplit's table ranking against NVIDIA's subgroup partition
# (VK_NV_shader_subgroup_partitioned; experiment build, EXP_MATCH_NV in the GLSL bucket
# function's pipelines), keys and pairs into 16, 24, 32 at 2^24 and 2^26, alternating processes
set -u
for f in .gl/*.deb; do dpkg -x $f / >/dev/null; done; ldconfig
R=/tmp/r103; mkdir -p $R
A="multisplit --sizes 24,26 --ms 16,24,32 --types keys,pairs --fns glsl --paths auto --reps 10 --pass-times"
for r in 1 2; do
  echo "== table $r" >> $R/t.txt
  timeout 140 .vx/m103/vkalgo-bench $A >> $R/t.txt 2>&1
  echo "== match $r" >> $R/t.txt
  VKALGO_EXP_PARTITIONED=1 VKALGO_EXP_DEFINE=EXP_MATCH_NV timeout 140 .vx/m103/vkalgo-bench $A >> $R/t.txt 2>&1
done
tar -czf $OUT/r103.tar.gz -C /tmp r103
grep -E "^== |^RESULT.*multisplit_|skipped|rror" $R/t.txt | awk -F'\t' '/^==/{h=$0; next}{printf "%s\t%s\t%s\t%s\t%s\n", h, $3, $4, $5, $6}' | grep -v copy
grep -E "pass \| split_tile_scatter" $R/t.txt | head -0
