#!/usr/bin/env bash
set -u
export OUT
timeout 560 bash bench/gpu_tests.sh split sort set_mem
