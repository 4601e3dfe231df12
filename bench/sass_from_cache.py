#!/usr/bin/env python3
"""Disassembles the machine code the NVIDIA Vulkan driver compiled for vkalgo's pipelines.

The driver keeps compiled pipelines in its shader disk cache. On the GPU machine, run the
benchmark with the cache in a folder of your choice, then bring its *.bin files back:

    __GL_SHADER_DISK_CACHE_PATH=/tmp/gl __GL_SHADER_DISK_CACHE_SKIP_CLEANUP=1 \\
        .devbin/vkalgo-bench sort --types pairs --sizes 22 --reps 1
    find /tmp/gl -name '*.bin' -exec cp {} "$OUT" \\;

Here (needs `pip install zstandard nvidia-cuda-nvdisasm`):

    python3 bench/sass_from_cache.py CACHE.bin OUTDIR [SM90]

writes OUTDIR/entry-K-SIZE.sass for every compiled pipeline in the file, in the order the
pipelines were created; VKALGO_PIPELINE_STATS=1 on the same run names them and gives their
binary sizes. The cache layout is not documented; what this script relies on was observed with
driver 580.159.04: each entry is a zstd frame that starts with b"NVDANVVM", the code's size is
the u32 at byte 0x4c and its offset the u32 at byte 0x50, and the instructions start 8 bytes
after that offset.
"""
import glob
import os
import struct
import subprocess
import sys

import zstandard

ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"


def nvdisasm_path():
    """nvdisasm from the pip package, else from PATH."""
    import importlib.util

    spec = importlib.util.find_spec("nvidia")
    if spec and spec.submodule_search_locations:
        for root in spec.submodule_search_locations:
            found = glob.glob(os.path.join(root, "**", "bin", "nvdisasm"), recursive=True)
            if found:
                return found[0]
    return "nvdisasm"


def entries(data):
    """Yields the machine code of every compiled pipeline in one cache file."""
    start = data.find(ZSTD_MAGIC)
    while start != -1:
        try:
            entry = zstandard.ZstdDecompressor().decompressobj().decompress(data[start:])
        except zstandard.ZstdError:
            entry = b""
        if entry.startswith(b"NVDANVVM") and len(entry) >= 0x54:
            size, offset = struct.unpack_from("<II", entry, 0x4C)
            code = entry[offset + 8 : offset + 8 + size]
            if len(code) == size and size % 16 == 0:
                yield code
        start = data.find(ZSTD_MAGIC, start + 4)


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    cache, out_dir = sys.argv[1], sys.argv[2]
    arch = sys.argv[3] if len(sys.argv) > 3 else "SM90"
    os.makedirs(out_dir, exist_ok=True)
    tool = nvdisasm_path()
    data = open(cache, "rb").read()
    for k, code in enumerate(entries(data)):
        raw = os.path.join(out_dir, f"entry-{k}-{len(code)}.bin")
        with open(raw, "wb") as f:
            f.write(code)
        result = subprocess.run([tool, "--binary", arch, raw], capture_output=True, text=True)
        with open(raw[:-4] + ".sass", "w") as f:
            f.write(result.stdout)
        print(f"{raw[:-4]}.sass: {len(code)} bytes, {len(result.stdout.splitlines())} lines {result.stderr.strip()}")


if __name__ == "__main__":
    main()
