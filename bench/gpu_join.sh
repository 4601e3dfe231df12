#!/usr/bin/env bash
# The join example on the GPU machine, in one command: the same join and group-by with
# cuCollections (bench/cuda/cuco_join.cu: prebuilt by bench/build_cuda.sh, else built here,
# cuco then from a carried .cuco/) and with vkalgo (examples/hash_join.rs, carried prebuilt as
# .devbin/examples/hash_join by scripts/build-devbin.sh), on the same rows, each checked
# against a CPU join; then the comparison (bench/compare.py join) last. Run from the repository
# root.
#
# Environment:
#   OUT        output folder (default /tmp/out): cuco-join.txt, vkalgo-join.txt, join-table.md
#   LOG2R      log2 of R's rows (default 24)
#   LOG2S      log2 of S's rows (default 26)
#   SEED       the tables' seed (default 1)
#   REPS       timed repetitions, the median reported (default 5)
#   WARM_MS    milliseconds of untimed repetitions before them, on both sides (default 1000:
#              the GPU's clocks rise only under sustained work, docs/tuning/core.md#warm-clocks)
#   HASH_JOIN  the example binary (default .devbin/examples/hash_join)
#   ARCH       nvcc target (default sm_90)
set -euo pipefail

LOG2R="${LOG2R:-24}"
LOG2S="${LOG2S:-26}"
SEED="${SEED:-1}"
REPS="${REPS:-5}"
WARM_MS="${WARM_MS:-1000}"
HASH_JOIN="${HASH_JOIN:-.devbin/examples/hash_join}"
# shellcheck source=bench/gpu_setup.sh
. "$(dirname "${BASH_SOURCE[0]}")/gpu_setup.sh"

cuda_build cuco_join bench/cuda/cuco_join.cu --expt-extended-lambda -I bench/cuda -I .cuco/include
cuco_rc=0
/tmp/cuco_join "$LOG2R" "$LOG2S" "$SEED" "$REPS" "$WARM_MS" | tee "$OUT/cuco-join.txt" || cuco_rc=$?

vk_rc=0
"$HASH_JOIN" --log2r "$LOG2R" --log2s "$LOG2S" --seed "$SEED" --reps "$REPS" --warm-up-ms "$WARM_MS" | tee "$OUT/vkalgo-join.txt" || vk_rc=$?

echo
python3 bench/compare.py join "$OUT/cuco-join.txt" "$OUT/vkalgo-join.txt" | tee "$OUT/join-table.md"
[ "$cuco_rc" -eq 0 ] || echo "cuco_join exited with status $cuco_rc" >&2
[ "$vk_rc" -eq 0 ] || echo "hash_join exited with status $vk_rc" >&2
exit $((cuco_rc | vk_rc))
