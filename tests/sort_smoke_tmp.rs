mod common;
use vkalgo::sort::reference;
use vkalgo::{SortOptions, SortPath};
#[test]
fn smoke() {
    let ctx = common::context();
    let mut rng = common::Rng(1);
    for path in [SortPath::Small, SortPath::Safe, SortPath::Onesweep] {
        for n in [1usize, 7, 511, 512, 513, 2048, 5000, 70000] {
            if path == SortPath::Small && n > 2048 {
                continue;
            }
            let keys = rng.vec_u32(n);
            let mut got = keys.clone();
            let mut vals: Vec<u32> = (0..n as u32).collect();
            let opts = SortOptions {
                path,
                ..Default::default()
            };
            ctx.sort_pairs_with(&mut got, &mut vals, &opts).unwrap();
            let mut want = keys.clone();
            let mut wv: Vec<u32> = (0..n as u32).collect();
            reference::sort_pairs(&mut want, Some(&mut wv), 0, 0, false);
            let bad = got.iter().zip(&want).position(|(a, b)| a != b);
            assert!(
                bad.is_none(),
                "{path:?} n={n} first bad {bad:?}: got {:?} want {:?}",
                &got[bad.unwrap()..(bad.unwrap() + 4).min(n)],
                &want[bad.unwrap()..(bad.unwrap() + 4).min(n)]
            );
            assert_eq!(vals, wv, "{path:?} n={n} values");
            eprintln!("{path:?} {n} ok");
        }
    }
    common::assert_no_validation_messages(&ctx);
}
