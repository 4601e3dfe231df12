//! GLSL bucket functions: every key type with parameters, repeated sources compiled once.

use super::*;

/// GLSL bucket functions of every key type: (source, m, params, CPU bucket of a key as u64 bits).
#[test]
fn every_key_type_with_params() {
    let ctx = context();
    let mut rng = Rng(7);
    // Above the small path's limit on lavapipe (4096): the multi-pass kernels.
    let n = 5001;
    let raw: Vec<u64> = (0..n).map(|_| rng.next_u64()).collect();
    // u32: (k * params.x) >> 32, as the benchmark's bucket function.
    let keys: Vec<u32> = raw.iter().map(|&x| x as u32).collect();
    for m in [2u32, 3, 8, 1024] {
        check_scaled_glsl(&ctx, &keys, m, "every type");
    }
    let src = "uint vkalgo_bucket(int k) { return uint(k) % vkalgo_params.x; }";
    let keys: Vec<i32> = raw.iter().map(|&x| x as i32).collect();
    let cpu: Vec<u32> = keys.iter().map(|&k| k as u32 % 33).collect();
    check(
        &ctx,
        &keys,
        &Bucketing::Glsl {
            bucket_count: 33,
            source: src,
            params: [33, 0, 0, 0],
        },
        Some((&cpu, 33)),
        "glsl i32",
    );
    let src = "uint vkalgo_bucket(float k) { return floatBitsToUint(k) >> 28; }";
    let keys: Vec<f32> = raw.iter().map(|&x| f32::from_bits(x as u32)).collect();
    let cpu: Vec<u32> = keys.iter().map(|&k| k.to_bits() >> 28).collect();
    check(
        &ctx,
        &keys,
        &Bucketing::Glsl {
            bucket_count: 16,
            source: src,
            params: [0; 4],
        },
        Some((&cpu, 16)),
        "glsl f32",
    );
    let src = "uint vkalgo_bucket(uint64_t k) { return uint(k % uint64_t(vkalgo_params.x)); }";
    let cpu: Vec<u32> = raw.iter().map(|&k| (k % 257) as u32).collect();
    check(
        &ctx,
        &raw,
        &Bucketing::Glsl {
            bucket_count: 257,
            source: src,
            params: [257, 0, 0, 0],
        },
        Some((&cpu, 257)),
        "glsl u64",
    );
    let src = "uint vkalgo_bucket(int64_t k) { return uint(uint64_t(k) >> 60); }";
    let keys: Vec<i64> = raw.iter().map(|&x| x as i64).collect();
    let cpu: Vec<u32> = raw.iter().map(|&k| (k >> 60) as u32).collect();
    check(
        &ctx,
        &keys,
        &Bucketing::Glsl {
            bucket_count: 16,
            source: src,
            params: [0; 4],
        },
        Some((&cpu, 16)),
        "glsl i64",
    );
    let src = "uint vkalgo_bucket(double k) { return k < 0.0 ? 0u : (k < 1.0 ? 1u : 2u); }";
    let keys: Vec<f64> = raw
        .iter()
        .enumerate()
        .map(|(i, &x)| mixed_f64(i, x, x as usize))
        .collect();
    let cpu: Vec<u32> = keys.iter().map(|&k| sign_fraction_bucket(k, 2)).collect();
    check(
        &ctx,
        &keys,
        &Bucketing::Glsl {
            bucket_count: 3,
            source: src,
            params: [0; 4],
        },
        Some((&cpu, 3)),
        "glsl f64",
    );
}

#[test]
fn repeated_source_compiles_once() {
    let ctx = context();
    let mut rng = Rng(8);
    // A source no other test uses; delta-stepping's bucket: distance / width, width a parameter.
    let src = "uint vkalgo_bucket(uint d) {\n    return min(d / vkalgo_params.x, vkalgo_params.y);\n}\n";
    let keys: Vec<u32> = (0..3000).map(|_| rng.next_u32() % 100_000).collect();
    let m = 64u32;
    let mut compiled = None;
    for (round, width) in [1000u32, 1600, 50_000, 1000].into_iter().enumerate() {
        let cpu: Vec<u32> = keys.iter().map(|&d| (d / width).min(m - 1)).collect();
        let b = Bucketing::Glsl {
            bucket_count: m,
            source: src,
            params: [width, m - 1, 0, 0],
        };
        check(&ctx, &keys, &b, Some((&cpu, m)), &format!("glsl width {width}"));
        // The first round compiles (the passes of pairs and keys); later rounds compile nothing.
        let now = vkalgo::split::glsl_compilations(src);
        assert_eq!(
            *compiled.get_or_insert(now),
            now,
            "round {round}: a repeated source compiled again"
        );
    }
    // A second context reuses the compiled source too (its pipelines are its own).
    let other = context();
    let mut k = keys.clone();
    other
        .multisplit(
            &mut k,
            &Bucketing::Glsl {
                bucket_count: m,
                source: src,
                params: [7, m - 1, 0, 0],
            },
        )
        .expect("second context");
    assert_eq!(Some(vkalgo::split::glsl_compilations(src)), compiled);
}
