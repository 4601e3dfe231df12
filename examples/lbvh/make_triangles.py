#!/usr/bin/env python3
"""Writes the adversarial --input files of examples/lbvh/test.sh (little-endian f32, 9 per
triangle). Python 3 standard library only; deterministic.

    make_triangles.py DIR

DIR/duplicates.bin  about 2100 triangles: 900 random ones, each of 40 triangles repeated 10 to 30 times
                    (identical Morton codes), zero-area ones (a point, collinear vertices),
                    triangles sharing one centroid with different shapes, shuffled
DIR/identical.bin   257 copies of one triangle (every code equal)
DIR/point.bin       1 triangle whose three vertices are one point (N = 1, zero area)
DIR/flat.bin        500 triangles all in the plane z = 0.5 (a flat axis of the centroid box)
DIR/nan.bin         3 triangles, one coordinate NaN (must be refused)
DIR/ragged.bin      2 triangles and 5 bytes (not a multiple of 36: must be refused)
DIR/empty.bin       0 bytes (N = 0: must be refused)
"""
import os
import random
import struct
import sys


def write(path, tris):
    with open(path, "wb") as f:
        for t in tris:
            f.write(struct.pack("<9f", *t))


def main():
    d = sys.argv[1]
    os.makedirs(d, exist_ok=True)
    rng = random.Random(2012)

    def rnd_tri(scale=1.0, center=(0.0, 0.0, 0.0)):
        return [center[i % 3] + rng.uniform(-scale, scale) for i in range(9)]

    tris = [rnd_tri(0.5, (rng.uniform(0, 50), rng.uniform(0, 50), rng.uniform(0, 50))) for _ in range(900)]
    for _ in range(40):
        t = rnd_tri(2.0, (rng.uniform(0, 50), rng.uniform(0, 50), rng.uniform(0, 50)))
        tris += [t] * rng.randint(10, 30)
    for _ in range(150):  # a point
        p = [rng.uniform(0, 50) for _ in range(3)]
        tris.append(p * 3)
    for _ in range(150):  # collinear vertices
        p = [rng.uniform(0, 50) for _ in range(3)]
        q = [rng.uniform(-1, 1) for _ in range(3)]
        tris.append([p[i % 3] + (i // 3) * q[i % 3] for i in range(9)])
    c = (25.0, 25.0, 25.0)
    for _ in range(100):  # one centroid, different shapes: v2 = 3c - v0 - v1
        v0 = [c[i] + rng.uniform(-3, 3) for i in range(3)]
        v1 = [c[i] + rng.uniform(-3, 3) for i in range(3)]
        v2 = [3 * c[i] - v0[i] - v1[i] for i in range(3)]
        tris.append(v0 + v1 + v2)
    rng.shuffle(tris)
    write(os.path.join(d, "duplicates.bin"), tris)

    write(os.path.join(d, "identical.bin"), [[1.0, 2.0, 3.0, 4.0, 2.5, 3.0, 1.5, 6.0, -3.0]] * 257)
    write(os.path.join(d, "point.bin"), [[7.0, -1.0, 2.0] * 3])
    write(os.path.join(d, "flat.bin"), [[rng.uniform(0, 10) if i % 3 != 2 else 0.5 for i in range(9)] for _ in range(500)])
    write(os.path.join(d, "nan.bin"), [rnd_tri(), rnd_tri()[:4] + [float("nan")] + rnd_tri()[5:], rnd_tri()])
    write(os.path.join(d, "ragged.bin"), [rnd_tri(), rnd_tri()])
    with open(os.path.join(d, "ragged.bin"), "ab") as f:
        f.write(b"\0" * 5)
    open(os.path.join(d, "empty.bin"), "wb").close()


if __name__ == "__main__":
    main()
