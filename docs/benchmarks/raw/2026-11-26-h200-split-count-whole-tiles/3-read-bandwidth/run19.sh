#!/usr/bin/env bash
set -u
NVCC=$(command -v nvcc || ls /usr/local/cuda*/bin/nvcc | head -1)
$NVCC -O3 -std=c++17 -arch=sm_90 -o /tmp/read_bw .var/read_bw.cu && /tmp/read_bw | tee $OUT/read_bw.txt
