//! Bad input through the Rust API is refused and changes nothing.

use super::*;

/// Every bad input of the Rust API: an InvalidArgument (CompileError for GLSL that does not
/// compile, with shaderc's message), the data unchanged, the context usable.
#[test]
fn refused_and_nothing_written() {
    let ctx = context();
    let keys0: Vec<u32> = vec![9, 3, 7, 1, 5];
    let values0: Vec<u32> = vec![0, 1, 2, 3, 4];
    let invalid = |r: vkalgo::Result<Vec<u64>>, what: &str| match r {
        Err(Error::InvalidArgument(m)) => assert!(!m.is_empty(), "{what}"),
        other => panic!("{what}: {other:?}"),
    };
    let run = |b: &Bucketing<u32>, what: &str| {
        let mut k = keys0.clone();
        let mut v = values0.clone();
        invalid(ctx.multisplit_pairs(&mut k, &mut v, b), what);
        assert_eq!((k, v), (keys0.clone(), values0.clone()), "{what}: data changed");
    };
    run(&bits(0, 0), "m = 0");
    run(&bits(1 << 17, 0), "m beyond the maximum");
    run(
        &Bucketing::Ids {
            bucket_count: 65537,
            ids: &[0; 5],
        },
        "IDS m beyond the maximum",
    );
    run(&bits(3, 0), "BITS m not a power of two");
    run(&bits(2, 32), "BITS offset at the width");
    run(&Bucketing::Splitters(&[5, 3]), "unsorted splitters");
    run(
        &Bucketing::Ids {
            bucket_count: 4,
            ids: &[0, 1, 2],
        },
        "missing ids",
    );
    run(
        &Bucketing::Ids {
            bucket_count: 4,
            ids: &[0, 1, 4, 2, 3],
        },
        "an id >= m",
    );
    let src = "uint vkalgo_bucket(uint k) { return k % vkalgo_params.x; }";
    run(
        &Bucketing::Glsl {
            bucket_count: 4,
            source: src,
            params: [5, 0, 0, 0],
        },
        "GLSL bucket >= m",
    );
    run(
        &Bucketing::Glsl {
            bucket_count: 4,
            source: "\0",
            params: [0; 4],
        },
        "GLSL with NUL",
    );
    // 64-bit keys too: the GPU status word, not a host check, catches GLSL's bad buckets.
    let mut k64: Vec<u64> = (0..10_000).collect();
    let src64 = "uint vkalgo_bucket(uint64_t k) { return k == 9999ul ? 7u : 0u; }";
    invalid(
        ctx.multisplit(
            &mut k64,
            &Bucketing::Glsl {
                bucket_count: 7,
                source: src64,
                params: [0; 4],
            },
        ),
        "GLSL u64 bucket >= m in the last element",
    );
    assert!(
        k64.iter().enumerate().all(|(i, &k)| k == i as u64),
        "u64 keys changed"
    );
    // GLSL that does not compile: CompileError with shaderc's message.
    let mut k = keys0.clone();
    let bad = "uint vkalgo_bucket(uint k) { return undefined_thing_42; }";
    match ctx.multisplit(
        &mut k,
        &Bucketing::Glsl {
            bucket_count: 4,
            source: bad,
            params: [0; 4],
        },
    ) {
        Err(Error::CompileError(m)) => assert!(m.contains("undefined_thing_42"), "{m}"),
        other => panic!("compile error expected: {other:?}"),
    }
    let no_function = "uint other_name(uint k) { return 0u; }";
    match ctx.multisplit(
        &mut k,
        &Bucketing::Glsl {
            bucket_count: 4,
            source: no_function,
            params: [0; 4],
        },
    ) {
        Err(Error::CompileError(_)) => {}
        other => panic!("compile error expected without vkalgo_bucket: {other:?}"),
    }
    assert_eq!(k, keys0);
    // Mismatched lengths.
    let mut v = vec![0u32; 4];
    invalid(
        ctx.multisplit_pairs(&mut k, &mut v, &bits(2, 0)),
        "values shorter than keys",
    );
    // The context is still usable.
    let mut k = keys0.clone();
    let offsets = ctx.multisplit(&mut k, &bits(2, 0)).expect("usable");
    assert_eq!(offsets, vec![0, 0, 5]);
    assert_eq!(k, keys0);
}
