# Command 1 (nvidia-h100-x1; build of a88f347's shader with the tiles per workgroup read from
# VKALGO_SCATTER_TPG, an experiment-only knob, tile items at the defaults then: 8 direct, 4
# subgroup-staged). The 16 multisplit tests ran first with 4 tiles a workgroup on every path.
tar -xJf .var/exp.tar.xz; for f in .gl/*.deb; do dpkg -x $f / 2>/dev/null; done; ldconfig
VKALGO_TEST_NO_VALIDATION=1 VKALGO_SCATTER_TPG=4 .vx/split --test-threads=1 2>&1 | tail -2
for t in 1 2 4 8 1 4; do echo "== TPG $t"; VKALGO_SCATTER_TPG=$t .vx/vkalgo-bench multisplit --sizes 26 --ms 2,4,8 --types keys,pairs --fns bits --paths auto,direct,substaged --reps 10 2>&1 | grep '^| [kp]' | grep -v sort_topbits; done
# Command 2 (same build, same machine): tile items x tiles per workgroup, keys into 8 buckets.
for items in 2 4 8; do for t in 1 2 4; do echo "== items $items TPG $t"; VKALGO_SCATTER_TPG=$t .vx/vkalgo-bench multisplit --sizes 26 --ms 8 --types keys --fns bits --paths substaged --tile-items $items --reps 10 --pass-times 2>&1 | grep -A8 '^| keys' | grep -v RESULT | head -8; done; done
for t in 1 4 1 4; do echo "== 2^24 TPG $t"; VKALGO_SCATTER_TPG=$t .vx/vkalgo-bench multisplit --sizes 24 --ms 8,12 --types keys --fns bits,glsl --paths auto --reps 10 2>&1 | grep '^| keys' | grep -v sort_top; done
# Command 3 (the defaults of a88f347: keys alone subgroup-staged 8 items, 4 tiles a workgroup),
# against CUB's reduced-bit sort and DevicePartition::If in the same command:
TESTS= OUT=$OUT/ms VKALGO_BENCH=.vx/vkalgo-bench SIZES="24 26" MS="2 3 8 32" bash bench/gpu_multisplit.sh --reps 10
