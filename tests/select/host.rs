//! The host layer: every key and value type, the three modes, adversarial data, counts around
//! the tiles, both paths, in place.

use super::*;

/// Every mode over `keys` of every count, keys alone and with `V` values.
fn every_mode<K: TestKey, V: TestValue>(ctx: &Context, seed: u64, counts: &[usize]) {
    let mut rng = Rng(seed);
    let (glsl, pred) = predicate::<K>();
    for &n in counts {
        let keys: Vec<K> = unique_keys(n, &mut rng);
        let values: Vec<V> = (0..n).map(V::of).collect();
        let check = |selection: &Selection, params: [u32; 4], what: &str| {
            let (want_keys, want_values) = expected::<K, V>(&keys, selection, |k| pred(k, params));
            let got = ctx.select(&keys, selection).unwrap();
            assert_eq!(bits(&got), bits(&want_keys), "{:?} {what} n {n}", K::KEY_TYPE);
            let (got_keys, got_values) = ctx.select_pairs(&keys, &values, selection).unwrap();
            assert_eq!(
                bits(&got_keys),
                bits(&want_keys),
                "{:?} {what} pairs n {n}",
                K::KEY_TYPE
            );
            assert_eq!(got_values, want_values, "{:?} {what} values n {n}", K::KEY_TYPE);
        };
        check(&Selection::Unique, [0; 4], "unique");
        for (p, (name, _)) in FLAG_PATTERNS.iter().enumerate() {
            let flags = flags_for(n, p, &mut rng);
            check(&Selection::Flagged(&flags), [0; 4], name);
        }
        let params = [3, 1, 0, 0];
        check(&Selection::If { glsl, params }, params, "if");
    }
}

fn every_type(ctx: &Context, counts: &[usize]) {
    every_mode::<u32, u32>(ctx, 1, counts);
    every_mode::<i32, u64>(ctx, 2, counts);
    every_mode::<f32, u32>(ctx, 3, counts);
    every_mode::<u64, u64>(ctx, 4, counts);
    every_mode::<i64, u32>(ctx, 5, counts);
    every_mode::<f64, u64>(ctx, 6, counts);
}

#[test]
fn count_scan_path_every_type_and_mode() {
    let ctx = context_with_lookback(false);
    every_type(&ctx, COUNTS);
}

#[test]
fn lookback_path_every_type_and_mode() {
    let ctx = context_with_lookback(true);
    every_type(&ctx, COUNTS);
}

#[test]
fn a_million_elements_on_both_paths() {
    for lookback in [false, true] {
        let ctx = context_with_lookback(lookback);
        every_mode::<u32, u64>(&ctx, 7, &[1_000_003]);
    }
}

#[test]
fn unique_compares_bits() {
    let ctx = context();
    let nan = f32::from_bits(0x7FC0_0000);
    let other_nan = f32::from_bits(0x7FC0_0001);
    let keys = [0.0f32, -0.0, -0.0, 0.0, nan, nan, other_nan, 1.0, 1.0];
    let got = ctx.select(&keys, &Selection::Unique).unwrap();
    let want = [0.0f32, -0.0, 0.0, nan, other_nan, 1.0];
    assert_eq!(bits(&got), bits(&want));
    let wide = [f64::NAN, f64::NAN, -0.0, 0.0, 0.0];
    let got = ctx.select(&wide, &Selection::Unique).unwrap();
    assert_eq!(bits(&got), bits(&[f64::NAN, -0.0, 0.0]));
}

#[test]
fn in_place() {
    let ctx = context();
    let mut keys: Vec<u64> = (0..5000u64).map(|i| i / 3).collect();
    let n = ctx.select_in_place(&mut keys, &Selection::Unique).unwrap();
    assert_eq!(n, 1667);
    assert!(keys[..n].iter().enumerate().all(|(i, &k)| k == i as u64));
    assert_eq!(keys[n..], (n as u64..5000).map(|i| i / 3).collect::<Vec<_>>()[..]);
}

#[test]
fn if_mode_compile_error_and_cache() {
    let ctx = context();
    let keys = [1u32, 2, 3];
    let bad = Selection::If {
        glsl: "bool vkalgo_select(uint k) { return k +; }",
        params: [0; 4],
    };
    assert!(matches!(ctx.select(&keys, &bad), Err(Error::CompileError(_))));
    let glsl = "bool vkalgo_select(uint k) { return k != vkalgo_params.z; }";
    let sel = Selection::If {
        glsl,
        params: [0, 0, 2, 0],
    };
    assert_eq!(ctx.select(&keys, &sel).unwrap(), vec![1, 3]);
    let compiled = vkalgo::split::glsl_compilations(glsl);
    let sel = Selection::If {
        glsl,
        params: [0, 0, 3, 0],
    };
    assert_eq!(ctx.select(&keys, &sel).unwrap(), vec![1, 2]);
    assert_eq!(
        vkalgo::split::glsl_compilations(glsl),
        compiled,
        "a repeated source compiles nothing"
    );
}
