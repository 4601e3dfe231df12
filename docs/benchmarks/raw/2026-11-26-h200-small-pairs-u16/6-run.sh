set -e
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
rm -rf /tmp/pyroaring_pkg; mkdir -p /tmp/pyroaring_pkg; python3 -m zipfile -e .pywheels/pyroaring-*.whl /tmp/pyroaring_pkg
for I in on off; do
  echo "=== set tests, VKALGO_SHADER_INT16=$I"
  VKALGO_SHADER_INT16=$I VKALGO_TEST_NO_VALIDATION=1 VKALGO_REQUIRE_PYROARING=1 PYTHONPATH=/tmp/pyroaring_pkg .vx/set-tests --test-threads=1 2>&1 | grep -E "test result|FAILED|panicked"
done
for round in 1 2; do
for I in off on; do
  echo "=== VKALGO_SHADER_INT16=$I round $round"
  VKALGO_SHADER_INT16=$I VKALGO_PIPELINE_STATS=$([ $round = 1 ] && echo 1 || echo 0) .vx/bench-new set --cases sparse,clustered --reps 10 2>&1 | grep -E "^[a-z_]+ +(sparse|clustered) |statistics.*(small_pairs)" | grep -v "contains\|to_array" || true
done
done
