//! Merges and set operations through the record layer: offsets and indirect counts.

use super::*;

/// The record layer with ranges at offsets inside larger buffers, poisoned around them, direct
/// or indirect counts; checks the output and that nothing else changed.
fn record_merge_case(ctx: &Context, path: MergePath, m: usize, n: usize, indirect: bool) {
    let mut rng = Rng(m as u64 * 31 + n as u64);
    let a = sorted_run::<u32>(&mut rng, m, 50, false);
    let b = sorted_run::<u32>(&mut rng, n, 50, false);
    let av: Vec<u32> = (0..m as u32).collect();
    let bv: Vec<u32> = (0..n as u32).map(|j| j | 1 << 31).collect();
    let (max_a, max_b) = (m + 13, n + 9);
    let desc = MergeDesc {
        path,
        ..MergeDesc::new(KeyType::U32, ValueType::U32, max_a as u64, max_b as u64)
    };
    let plan = ctx.merge_plan(&desc).unwrap();
    let total = max_a + max_b;
    // One buffer for the inputs, one for the outputs, at odd word offsets.
    let input: Vec<u32> = [
        a.clone(),
        vec![POISON; max_a - m],
        av.clone(),
        vec![POISON; max_a - m],
    ]
    .concat()
    .into_iter()
    .chain(
        [
            b.clone(),
            vec![POISON; max_b - n],
            bv.clone(),
            vec![POISON; max_b - n],
        ]
        .concat(),
    )
    .collect();
    let in_buf = poisoned(ctx, input.len() + 8, 3, &input);
    let mut out_buf = poisoned(ctx, 2 * total + 10, 0, &[]);
    let scratch = GpuBuffer::new(
        ctx,
        plan.memory_requirements().scratch.size + 32,
        MemoryLocation::GpuOnly,
        "scratch",
    )
    .unwrap();
    let count_buf = poisoned(ctx, 8, 0, &[m as u32, POISON, n as u32]);
    let range = |buf: &GpuBuffer, word: usize, len: usize| buf.sub_range(word as u64 * 4, len as u64 * 4);
    let out_at = 5;
    let args = MergeArgs {
        a_keys: range(&in_buf, 3, max_a),
        a_values: Some(range(&in_buf, 3 + max_a, max_a)),
        b_keys: range(&in_buf, 3 + 2 * max_a, max_b),
        b_values: Some(range(&in_buf, 3 + 2 * max_a + max_b, max_b)),
        out_keys: range(&out_buf, out_at, total),
        out_values: Some(range(&out_buf, out_at + total, total)),
        scratch: scratch.sub_range(16, plan.memory_requirements().scratch.size),
        a_count: if indirect {
            ElementCount::Indirect(range(&count_buf, 0, 1))
        } else {
            ElementCount::Direct(m as u64)
        },
        b_count: if indirect {
            ElementCount::Indirect(range(&count_buf, 2, 1))
        } else {
            ElementCount::Direct(n as u64)
        },
    };
    ctx.submit_and_wait(|cmd| unsafe {
        host_to_compute(ctx, cmd);
        plan.record(cmd, &args)?;
        common::compute_to_host(ctx, cmd);
        Ok(())
    })
    .unwrap();
    let got = words(&mut out_buf);
    let (want_keys, want_values) = reference::merge(&a, Some(&av), &b, Some(&bv), false);
    let what = format!("record {path:?} ({m}, {n}) indirect={indirect}");
    let mut want = vec![POISON; got.len()];
    want[out_at..out_at + m + n].copy_from_slice(&want_keys);
    want[out_at + total..out_at + total + m + n].copy_from_slice(&want_values.unwrap());
    assert!(got == want, "{what}: output or poison differs");
}

#[test]
fn merge_offsets_and_indirect_counts() {
    let ctx = context();
    let tile = tile_of(&ctx, KeyType::U32);
    for path in [MergePath::Fused, MergePath::Partitioned] {
        for (m, n) in [(0, 0), (0, 7), (tile, tile + 1), (3 * tile + 2, 17)] {
            for indirect in [false, true] {
                record_merge_case(&ctx, path, m, n, indirect);
            }
        }
    }
}

#[test]
fn set_ops_indirect_counts() {
    record_set_ops(&context(), SetOpPath::CountScanWrite, None);
}
