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
# against CUB's reduced-bit sort and DevicePartition::If in the same command. Its first loop ran
# on a fresh machine before the Vulkan loader was unpacked (gpu_setup.sh unpacks it later) and
# printed nothing:
for v in "8 8" "16 2" "16 4"; do set -- $v; echo "== items $1 TPG $2"; VKALGO_SCATTER_TPG=$2 .vx/vkalgo-bench multisplit --sizes 26 --ms 8 --types keys --fns bits --paths substaged --tile-items $1 --reps 10 2>&1 | grep '^| keys' | grep -v sort_top; done
TESTS= OUT=$OUT/ms VKALGO_BENCH=.vx/vkalgo-bench SIZES="24 26" MS="2 3 8 32" bash bench/gpu_multisplit.sh --reps 10
# Command 4 (build of a88f347 with the tiles per workgroup again read from VKALGO_SCATTER_TPG
# where set; old-bench: the build of 62830de), in one command: the 3 multisplit tests that
# cover the multi-tile scatter, then old against new twice, keys alone into 16 and 32 on the
# subgroup-staged path against Auto (then the Onesweep split), pairs with 1 and 2 tiles.
VKALGO_TEST_NO_VALIDATION=1 .vx/split --test-threads=1 subgroup_staged record_layer matrix_scanned 2>&1 | grep -E "^test |test result"
B="multisplit --sizes 24,26 --ms 8,12 --types keys --fns glsl,bits --paths auto --reps 10"
for r in 1 2; do for b in old-bench vkalgo-bench; do echo "== A/B $b"; .vx/$b $B 2>&1 | grep '^| keys' | grep -v sort_top; done; done
echo "== keys 16,32 substaged vs auto"; .vx/vkalgo-bench multisplit --sizes 24,26 --ms 16,32 --types keys --fns glsl,bits --paths auto,substaged --reps 10 2>&1 | grep '^| keys' | grep -v sort_top
for t in 1 2 1 2; do echo "== pairs TPG $t"; VKALGO_SCATTER_TPG=$t .vx/vkalgo-bench multisplit --sizes 24,26 --ms 3,4,8 --types pairs --fns glsl --paths substaged --reps 10 2>&1 | grep '^| pairs' ; done
# Command 5 (the build of 441e364): the 16 multisplit tests, then the benchmark against CUB.
TESTS=.vx/split OUT=$OUT/ms VKALGO_BENCH=.vx/vkalgo-bench bash bench/gpu_multisplit.sh --reps 10
# Command 6 (build of 61d938a with the count pass's 16-byte vectors per lane and round read
# from VKALGO_COUNT_VECTORS, an experiment-only knob; the plan's value is 8):
for v in 2 4 8 16 8 16; do echo "== vectors $v"; VKALGO_COUNT_VECTORS=$v .vx/vkalgo-bench multisplit --sizes 26 --ms 2,8 --types keys,pairs --fns bits --paths auto --reps 10 --pass-times 2>&1 | grep -E '^\| (keys|pairs) \| bits|tile_count' ; done
# Command 7 (build of 61d938a with VKALGO_SCATTER_TPG read again, experiment only):
# u32 -> u32 pairs by GLSL, Auto (direct into 2, staged into 16 and 32), 1, 2 and 4 tiles.
for t in 1 2 4 1 2 4; do echo "== TPG $t"; VKALGO_SCATTER_TPG=$t .vx/vkalgo-bench multisplit --sizes 24,26 --ms 2,16,32 --types pairs --fns glsl --paths auto --reps 10 2>&1 | grep -E '^\| pairs \| glsl' ; done
# Command 8 (the build of 2e2fee7): the 16 multisplit tests, then the benchmark against CUB.
TESTS=.vx/split OUT=$OUT/ms VKALGO_BENCH=.vx/vkalgo-bench bash bench/gpu_multisplit.sh --reps 10
# Command 9 (the same build as command 8, asked of the nvidia-h200 kind; an H100 came): the
# benchmark again, without the tests.
TESTS= OUT=$OUT/ms VKALGO_BENCH=.vx/vkalgo-bench bash bench/gpu_multisplit.sh --reps 10
