#!/usr/bin/env bash
# chunk_update with ~18.5 KiB shared: tests, then base vs new (512 / 1024 invocations), clustered sets.
set -u
tar -xJf .var/exp.tar.xz
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv
export VKALGO_TEST_NO_VALIDATION=1
VKALGO_EXP_UPDATE_WG=512 timeout 200 .vx/set-tests --test-threads=1 > $OUT/tests512.txt 2>&1; echo "tests rc $?"
tail -4 $OUT/tests512.txt
for r in 1 2; do
  timeout 60 .vx/bench-base set --cases clustered --reps 10 --pass-times > $OUT/base-$r.txt 2>&1
  VKALGO_EXP_UPDATE_WG=512 timeout 60 .vx/bench-new set --cases clustered --reps 10 --pass-times > $OUT/n512-$r.txt 2>&1
  VKALGO_EXP_UPDATE_WG=1024 timeout 60 .vx/bench-new set --cases clustered --reps 10 --pass-times > $OUT/n1024-$r.txt 2>&1
done
for v in base n512 n1024; do for r in 1 2; do
  echo "== $v $r"
  grep -E "^(and|or|andnot|xor|build_sorted|to_array|contains)[a-z_]* +clustered|set_chunk_update|rror|panic" $OUT/$v-$r.txt | grep -v "^RESULT" | awk '/pass/ {printf "   cu %s\n", $6; next} {print $1, $4}' | tr '\n' ' '; echo
done; done
