set -e
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv
for round in 1 2; do
for P in 0 1 2 3; do
  echo "=== p$P round $round"
  VKALGO_PROBE_NOCHECK=1 VKALGO_PIPELINE_STATS=$([ $round = 1 ] && echo 1 || echo 0) .vx/bench-p$P set --cases sparse --reps 10 2>&1 | grep -E "^(and|or|andnot|xor)_cardinality|^and_reserved|^or_reserved|statistics.*small_pairs" | grep -v "^RESULT" || true
done
done
