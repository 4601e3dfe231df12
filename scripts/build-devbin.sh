#!/usr/bin/env bash
# Builds what the lent GPU machine runs into .devbin/ (git-ignored; name it in the device
# tool's `carry` with .gl): the benchmark and every integration-test binary
# (.devbin/tests/<name>: the library's tests/*.rs and the benchmark crate's large-count checks,
# crates/vkalgo-bench/tests/large_*.rs, which bench/gpu_tests.sh runs with `large`) and a loadable shaderc (.devbin/lib), built here in release mode (they
# run there as they are), stripped and
# packed into .devpack/devbin.tar.xz (carry .devpack: the device tool carries 64 MiB at most;
# bench/gpu_setup.sh unpacks it there).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --bin vkalgo-bench --examples
mkdir -p .devbin/tests .devbin/examples .devbin/lib
cp target/release/vkalgo-bench .devbin/
# The shaderc library for GLSL bucket functions (it needs libshaderc1's libshaderc.so.1 there:
# carry its .deb in .gl).
cp "$(scripts/shaderc-shared.sh)" .devbin/lib/
find target/release/examples -maxdepth 1 -type f -executable ! -name '*-*' -exec cp {} .devbin/examples/ \;
rm -f .devbin/tests/*
cargo test --release --no-run --message-format=json 2>/dev/null |
  python3 -c '
import json, sys, shutil, os
for line in sys.stdin:
    try:
        m = json.loads(line)
    except ValueError:
        continue
    if m.get("reason") != "compiler-artifact" or not m.get("executable"):
        continue
    kinds = m["target"]["kind"]
    if "test" in kinds:
        shutil.copy(m["executable"], os.path.join(".devbin/tests", m["target"]["name"]))
'
strip .devbin/vkalgo-bench .devbin/tests/* .devbin/examples/* .devbin/lib/*
mkdir -p .devpack
tar -cJf .devpack/devbin.tar.xz .devbin
ls -la .devbin .devbin/tests .devpack
