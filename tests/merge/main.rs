//! Merge path on the Vulkan device (lavapipe in CI), compared exactly with CPU references:
//! stable merges of every key type and order with and without values, sizes around the tile,
//! equal keys (stability through the values), float specials, both kernel paths, the record
//! layer with offsets and indirect counts; set operations with multiset semantics; the merge
//! sort and the segmented merge; bad input through the Rust API and the C ABI.

mod bad_input;
mod c_abi;
#[path = "../common/mod.rs"]
mod common;
mod host;
mod record;
mod set_ops;

use common::*;
use vkalgo::ash::vk;
use vkalgo::merge::reference;
use vkalgo::sort::reference::sort_pairs;
use vkalgo::{
    BufferRange, Context, ElementCount, Error, GpuBuffer, KeyType, MemoryLocation, MergeArgs, MergeDesc,
    MergeOptions, MergePath, MergeSortDesc, MergeTuning, SetOp, SetOpArgs, SetOpDesc, SetOpPath, SortKey,
    SortValue, ValueType,
};

fn bits<K: SortKey>(k: &[K]) -> &[u8] {
    bytemuck::cast_slice(k)
}

/// `n` keys from `domain` small values (0: full-width random bits), with specials mixed in,
/// sorted in the given order.
fn sorted_run<K: TestKey>(rng: &mut Rng, n: usize, domain: u64, descending: bool) -> Vec<K> {
    let specials = K::specials();
    let mut keys: Vec<K> = (0..n)
        .map(|_| {
            let r = rng.next_u64();
            if !specials.is_empty() && r % 11 == 0 {
                specials[(r >> 8) as usize % specials.len()]
            } else if domain == 0 {
                K::from_bits64(rng.next_u64())
            } else {
                K::from_small(rng.next_u64() % domain)
            }
        })
        .collect();
    sort_pairs::<K, u32>(&mut keys, None, 0, 0, descending);
    keys
}

fn tile_of(ctx: &Context, key_type: KeyType) -> usize {
    ctx.merge_plan(&MergeDesc::new(key_type, ValueType::U64, 1 << 20, 1 << 20))
        .unwrap()
        .tile_size() as usize
}

/// Set operations through the record layer with indirect counts, ranges inside larger
/// buffers and poison around the output.
fn record_set_ops(ctx: &Context, path: SetOpPath, tuning: Option<MergeTuning>) {
    let ctx = ctx.clone();
    let mut rng = Rng(61);
    let (m, n) = (1000usize, 1700usize);
    let a = sorted_run::<u32>(&mut rng, m, 900, false);
    let b = sorted_run::<u32>(&mut rng, n, 900, false);
    for op in SetOp::ALL {
        let plan = ctx
            .set_op_plan(&SetOpDesc {
                key_type: KeyType::U32,
                op,
                max_a: m as u64 + 100,
                max_b: n as u64 + 50,
                path,
                tuning,
            })
            .unwrap();
        assert_eq!(plan.path(), path);
        let input = [a.clone(), b.clone()].concat();
        let in_buf = poisoned(&ctx, input.len() + 4, 1, &input);
        let mut out_buf = poisoned(&ctx, m + n + 150 + 8, 0, &[]);
        let count_buf = poisoned(&ctx, 4, 0, &[m as u32, n as u32]);
        let scratch = GpuBuffer::new(
            &ctx,
            plan.memory_requirements().scratch.size,
            MemoryLocation::GpuOnly,
            "scratch",
        )
        .unwrap();
        let args = SetOpArgs {
            a: in_buf.sub_range(4, m as u64 * 4),
            b: in_buf.sub_range(4 + m as u64 * 4, n as u64 * 4),
            out: out_buf.sub_range(8, (m + n + 150) as u64 * 4),
            out_count: out_buf.sub_range(0, 4),
            scratch: scratch.range(),
            a_count: ElementCount::Indirect(count_buf.sub_range(0, 4)),
            b_count: ElementCount::Indirect(count_buf.sub_range(4, 4)),
        };
        // The ranges of A and B are sized for their counts; an indirect count sizes for the
        // maxima, so these ranges are refused...
        let refused = ctx.submit_and_wait(|cmd| unsafe { plan.record(cmd, &args) });
        assert!(matches!(refused, Err(Error::InvalidArgument(_))), "{op:?}");
        // ...and accepted with room for the maxima.
        let in_buf = poisoned(&ctx, m + n + 160, 0, &[]);
        {
            let mut in_buf = in_buf;
            let w: &mut [u32] = bytemuck::cast_slice_mut(in_buf.mapped().unwrap());
            w[..m].copy_from_slice(&a);
            w[m + 100..m + 100 + n].copy_from_slice(&b);
            let args = SetOpArgs {
                a: in_buf.sub_range(0, (m + 100) as u64 * 4),
                b: in_buf.sub_range((m + 100) as u64 * 4, (n + 50) as u64 * 4),
                ..args
            };
            ctx.submit_and_wait(|cmd| unsafe {
                host_to_compute(&ctx, cmd);
                plan.record(cmd, &args)?;
                common::compute_to_host(&ctx, cmd);
                Ok(())
            })
            .unwrap();
        }
        let got = words(&mut out_buf);
        let want = reference::set_op(op, &a, &b);
        assert_eq!(got[0] as usize, want.len(), "{op:?} count");
        assert_eq!(&got[2..2 + want.len()], &want[..], "{op:?} keys");
        assert!(
            got[1] == POISON && got[2 + want.len()..].iter().all(|&w| w == POISON),
            "{op:?} poison"
        );
    }
}
