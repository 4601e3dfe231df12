tar -xJf .var/exp.tar.xz && VKALGO_BENCH=.vx/bench-base SET_TESTS=.vx/set-tests bash bench/gpu_set.sh --reps 10  # build of d214f26; pyroaring 1.0.3 wheel carried in .pywheels
