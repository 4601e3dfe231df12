set -e
. bench/gpu_setup.sh > $OUT/setup.txt 2>&1
xz -dc .vx/bench-new.xz > /tmp/bench-new; chmod +x /tmp/bench-new
TESTS= VKALGO_BENCH=/tmp/bench-new SIZES="24 26" MS="2 3 4 8 16 32 256" bash bench/gpu_multisplit.sh --fns glsl,bits --paths auto > $OUT/final.txt 2>&1 || echo "final rc $?"
tail -45 $OUT/multisplit-table.md
