#!/usr/bin/env python3
"""Independent check of an `lbvh --output` file against the triangles it was built from.

    check_bvh.py TRIANGLES BVH

TRIANGLES: little-endian f32, 9 per triangle (the --input format). BVH: u32 magic 0x4856424C,
u32 N, u32 root, then 2N - 1 nodes of 32 bytes (f32 lo[3], f32 hi[3], u32 a, u32 b; a leaf has
b = 0xFFFFFFFF and a = its triangle's index). Checks: header and size; every node reachable
exactly once from the root; N leaves holding every triangle exactly once; N - 1 inner nodes
with two distinct children; leaf boxes the exact f32 min/max of their triangle's vertices;
inner boxes the exact union of their children's boxes. Python 3 standard library only.
Exit 0 and a one-line summary, or exit 1 with the first error.
"""
import struct
import sys

LEAF = 0xFFFFFFFF
MAGIC = 0x4856424C


def fail(msg):
    print(f"check_bvh: error: {msg}", file=sys.stderr)
    sys.exit(1)


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    tri_bytes = open(sys.argv[1], "rb").read()
    bvh = open(sys.argv[2], "rb").read()
    if len(tri_bytes) == 0 or len(tri_bytes) % 36:
        fail(f"{sys.argv[1]}: {len(tri_bytes)} bytes is not a positive multiple of 36")
    n = len(tri_bytes) // 36
    tris = struct.unpack(f"<{9 * n}f", tri_bytes)
    if len(bvh) < 12:
        fail(f"{sys.argv[2]}: {len(bvh)} bytes, no header")
    magic, count, root = struct.unpack_from("<3I", bvh, 0)
    if magic != MAGIC:
        fail(f"magic {magic:#010x}, want {MAGIC:#010x}")
    if count != n:
        fail(f"the BVH holds {count} triangles, the triangle file {n}")
    nodes_n = 2 * n - 1
    if len(bvh) != 12 + 32 * nodes_n:
        fail(f"{len(bvh)} bytes, want {12 + 32 * nodes_n} (12 + 32 (2N - 1))")
    if root >= nodes_n:
        fail(f"root {root} out of range ({nodes_n} nodes)")
    raw = struct.unpack_from(f"<{8 * nodes_n}I", bvh, 12)
    flt = struct.unpack_from(f"<{8 * nodes_n}f", bvh, 12)

    seen = bytearray(nodes_n)
    tri_seen = bytearray(n)
    visited = leaves = 0
    stack = [root]
    while stack:
        i = stack.pop()
        if seen[i]:
            fail(f"node {i} reached twice")
        seen[i] = 1
        visited += 1
        w = 8 * i
        a, b = raw[w + 6], raw[w + 7]
        box = flt[w : w + 6]
        if b == LEAF:
            if a >= n or tri_seen[a]:
                fail(f"leaf {i} holds triangle {a} ({'out of range' if a >= n else 'already in another leaf'})")
            tri_seen[a] = 1
            leaves += 1
            v = tris[9 * a : 9 * a + 9]
            want = [min(v[c], v[3 + c], v[6 + c]) for c in range(3)] + [max(v[c], v[3 + c], v[6 + c]) for c in range(3)]
        else:
            if a >= nodes_n or b >= nodes_n or a == b:
                fail(f"inner node {i} has children {a} and {b}")
            stack.append(a)
            stack.append(b)
            la, lb = 8 * a, 8 * b
            want = [min(flt[la + c], flt[lb + c]) for c in range(3)] + [max(flt[la + 3 + c], flt[lb + 3 + c]) for c in range(3)]
        if list(box) != want:
            kind = "leaf" if b == LEAF else "inner"
            fail(f"{kind} node {i}: box {list(box)}, want {want}")
    if visited != nodes_n or leaves != n:
        fail(f"{visited} nodes reachable ({leaves} leaves), want {nodes_n} ({n} leaves)")
    print(f"check_bvh: OK: {n} triangles, {nodes_n} nodes, root {root}, exact boxes")


if __name__ == "__main__":
    main()
