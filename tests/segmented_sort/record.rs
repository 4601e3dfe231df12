//! The record layer: ranges at offsets into one buffer, poison around the keys and values,
//! direct and indirect element and segment counts (an indirect count below the plan's
//! maximum leaves the elements past it untouched), a custom tuning, and the plan's queries.

use super::*;
use vkalgo::{
    ElementCount, GpuBuffer, KeyType, MemoryLocation, SegmentedSortArgs, SegmentedSortDesc,
    SegmentedSortPlan, SegmentedSortTuning, ValueType,
};

/// How the counts of one recorded sort are passed.
#[derive(Clone, Copy, Debug)]
struct Counts {
    /// The element count through a GPU buffer.
    indirect_count: bool,
    /// The segment count through a GPU buffer.
    indirect_segments: bool,
    /// The indirect segment count's word, where not the offsets' segments (a count over the
    /// plan's maximum is clamped to it).
    segment_word: Option<u32>,
}

impl Counts {
    /// Both counts direct.
    const DIRECT: Counts = Counts {
        indirect_count: false,
        indirect_segments: false,
        segment_word: None,
    };
}

/// Runs `plan` on u32 keys and u32 values (`values` None: keys alone) in one host-visible
/// buffer, each range at an odd multiple of 16 bytes after poison. Returns the keys and values
/// of the whole array (`keys.len()` elements: the sorted count may be smaller) and whether the
/// poison around them held.
fn record(
    ctx: &Context,
    plan: &SegmentedSortPlan,
    keys: &[u32],
    values: Option<&[u32]>,
    count: usize,
    offsets: &[u32],
    counts: Counts,
) -> (Vec<u32>, Option<Vec<u32>>, bool) {
    let n = keys.len() as u64;
    let pad = 48u64;
    let keys_at = pad;
    let values_at = keys_at + n * 4 + pad;
    let offsets_at = values_at + n * 4 + pad;
    // An indirect segment count needs room for the plan's most offsets.
    let offset_words = if counts.indirect_segments {
        plan.desc().max_segments + 1
    } else {
        offsets.len() as u64
    };
    let counts_at = (offsets_at + offset_words * 4 + pad).next_multiple_of(16);
    let scratch_at = (counts_at + 16 + pad).next_multiple_of(256);
    let scratch_bytes = plan.memory_requirements().scratch.size;
    let mut buf = GpuBuffer::new(ctx, scratch_at + scratch_bytes, MemoryLocation::CpuToGpu, "t").unwrap();
    {
        let map = buf.mapped().unwrap();
        map.fill(0xA5);
        let put = |map: &mut [u8], at: u64, words: &[u32]| {
            map[at as usize..at as usize + words.len() * 4].copy_from_slice(bytemuck::cast_slice(words));
        };
        put(map, keys_at, keys);
        if let Some(v) = values {
            put(map, values_at, v);
        }
        put(map, offsets_at, offsets);
        let segment_word = counts.segment_word.unwrap_or(offsets.len() as u32 - 1);
        put(map, counts_at, &[count as u32, segment_word]);
    }
    let args = SegmentedSortArgs {
        keys: buf.sub_range(keys_at, n * 4),
        values: values.map(|_| buf.sub_range(values_at, n * 4)),
        offsets: buf.sub_range(offsets_at, offset_words * 4),
        scratch: buf.sub_range(scratch_at, scratch_bytes),
        count: if counts.indirect_count {
            ElementCount::Indirect(buf.sub_range(counts_at, 4))
        } else {
            ElementCount::Direct(count as u64)
        },
        segments: if counts.indirect_segments {
            ElementCount::Indirect(buf.sub_range(counts_at + 4, 4))
        } else {
            ElementCount::Direct(offsets.len() as u64 - 1)
        },
    };
    ctx.submit_and_wait(|cmd| unsafe {
        host_to_compute(ctx, cmd);
        plan.record(cmd, &args)?;
        compute_to_host(ctx, cmd);
        Ok(())
    })
    .unwrap();
    let map = buf.mapped().unwrap();
    let words = |at: u64, len: u64| -> Vec<u32> {
        bytemuck::cast_slice(&map[at as usize..(at + len * 4) as usize]).to_vec()
    };
    let poisoned = |at: u64| (0..16).all(|i| map[at as usize + i] == 0xA5);
    let poison = poisoned(keys_at - 16)
        && poisoned(keys_at + n * 4)
        && poisoned(values_at - 16)
        && poisoned(values_at + n * 4);
    (words(keys_at, n), values.map(|_| words(values_at, n)), poison)
}

/// `keys` and `values` with their first `count` sorted ascending in the segments of `offsets`
/// (the CPU reference).
fn ascending(keys: &[u32], values: &[u32], count: usize, offsets: &[u64]) -> (Vec<u32>, Vec<u32>) {
    let (mut k, mut v) = (keys.to_vec(), values.to_vec());
    reference::segmented_sort_pairs(&mut k[..count], Some(&mut v[..count]), offsets, 0, 0, false);
    (k, v)
}

/// Direct and indirect counts, keys alone and pairs, over several layouts; an indirect count
/// below the plan's maximum sorts only that many elements.
#[test]
fn direct_and_indirect_counts() {
    let ctx = context();
    let mut rng = Rng(21);
    let max = 6000usize;
    let values: Vec<u32> = (0..max as u32).collect();
    for (with_values, value_type) in [(false, ValueType::None), (true, ValueType::U32)] {
        let plan = ctx
            .segmented_sort_plan(&SegmentedSortDesc::new(
                KeyType::U32,
                value_type,
                max as u64,
                max as u64,
            ))
            .unwrap();
        for layout in LAYOUTS {
            for (count, counts) in [
                (max, Counts::DIRECT),
                (
                    max,
                    Counts {
                        indirect_count: true,
                        indirect_segments: true,
                        segment_word: None,
                    },
                ),
                (
                    4321,
                    Counts {
                        indirect_count: true,
                        indirect_segments: false,
                        segment_word: None,
                    },
                ),
                (
                    3333,
                    Counts {
                        indirect_count: false,
                        indirect_segments: true,
                        segment_word: None,
                    },
                ),
            ] {
                let keys: Vec<u32> = keys_with_specials(max, &DISTRIBUTIONS[4], &mut rng);
                let offsets = layout.1(&mut rng, count);
                let offsets32: Vec<u32> = offsets.iter().map(|&o| o as u32).collect();
                let v = with_values.then_some(&values[..]);
                let (got_keys, got_values, poison) = record(&ctx, &plan, &keys, v, count, &offsets32, counts);
                let (want_keys, want_values) = ascending(&keys, &values, count, &offsets);
                let what = format!("{} count {count} {counts:?} values {with_values}", layout.0);
                assert!(poison, "{what}: poison overwritten");
                assert!(got_keys == want_keys, "{what}: keys");
                if with_values {
                    assert!(got_values == Some(want_values), "{what}: values");
                }
            }
        }
    }
}

/// A tuning of its own (the smallest tile, so many merge rounds), and the plan's queries.
#[test]
fn tuning_and_queries() {
    let ctx = context();
    let mut rng = Rng(22);
    let tuning = SegmentedSortTuning {
        workgroup_size: 32,
        items_per_invocation: 3,
        merge_workgroups: 5,
    };
    let n = 10_000usize;
    let plan = ctx
        .segmented_sort_plan(&SegmentedSortDesc {
            tuning: Some(tuning),
            descending: true,
            ..SegmentedSortDesc::new(KeyType::U32, ValueType::U32, n as u64, n as u64)
        })
        .unwrap();
    assert_eq!(plan.tuning(), tuning);
    assert_eq!(plan.tile_size(), 96);
    assert_eq!(plan.small_limit(), 48);
    assert_eq!(plan.rounds(n as u64), 7);
    assert_eq!(plan.desc().max_count, n as u64);
    let values: Vec<u32> = (0..n as u32).collect();
    for layout in LAYOUTS {
        let keys: Vec<u32> = keys_with_specials(n, &DISTRIBUTIONS[0], &mut rng);
        let offsets = layout.1(&mut rng, n);
        let offsets32: Vec<u32> = offsets.iter().map(|&o| o as u32).collect();
        let counts = Counts::DIRECT;
        let (got_keys, got_values, poison) = record(&ctx, &plan, &keys, Some(&values), n, &offsets32, counts);
        let (mut want_keys, mut want_values) = (keys.clone(), values.clone());
        reference::segmented_sort_pairs(&mut want_keys, Some(&mut want_values), &offsets, 0, 0, true);
        assert!(poison, "{}: poison", layout.0);
        assert!(
            got_keys == want_keys && got_values == Some(want_values),
            "{}",
            layout.0
        );
    }
}

/// Mostly empty segments: more segments start in one workgroup's range than a tile holds, so
/// the block pass cannot stage their starts and sorts its tiny segments by the block merge sort
/// instead of a subgroup each; a range of staged starts beside it takes the subgroups.
#[test]
fn more_segment_starts_than_a_tile() {
    let ctx = context();
    let mut rng = Rng(24);
    let n = 6000usize;
    let mut offsets = vec![0u64];
    let mut at = 0u64;
    while at < n as u64 {
        // The first half: one segment in 24 holds 1..=12 elements, the rest are empty; the
        // second half: tiny segments of 0..=64 elements.
        let size = if at < n as u64 / 2 {
            if rng.next_u32() % 24 == 0 {
                1 + rng.next_u32() % 12
            } else {
                0
            }
        } else {
            rng.next_u32() % 65
        };
        at = (at + size as u64).min(n as u64);
        offsets.push(at);
    }
    let segments = offsets.len() as u64 - 1;
    let plan = ctx
        .segmented_sort_plan(&SegmentedSortDesc::new(
            KeyType::U32,
            ValueType::U32,
            n as u64,
            segments,
        ))
        .unwrap();
    assert!(segments > 4 * plan.tile_size(), "{segments} segments");
    let keys: Vec<u32> = keys_with_specials(n, &DISTRIBUTIONS[0], &mut rng);
    let values: Vec<u32> = (0..n as u32).collect();
    let offsets32: Vec<u32> = offsets.iter().map(|&o| o as u32).collect();
    let counts = Counts::DIRECT;
    let (got_keys, got_values, poison) = record(&ctx, &plan, &keys, Some(&values), n, &offsets32, counts);
    let (want_keys, want_values) = ascending(&keys, &values, n, &offsets);
    assert!(poison);
    assert!(got_keys == want_keys && got_values == Some(want_values));
}

/// An indirect segment count over the plan's maximum is clamped to it: with the plan's most
/// segments in the offsets, the result is that of those segments.
#[test]
fn indirect_segment_count_is_clamped() {
    let ctx = context();
    let mut rng = Rng(23);
    let n = 3000usize;
    let plan = ctx
        .segmented_sort_plan(&SegmentedSortDesc::new(
            KeyType::U32,
            ValueType::None,
            n as u64,
            4,
        ))
        .unwrap();
    let offsets = [0u64, 700, 700, 2500, n as u64];
    let offsets32: Vec<u32> = offsets.iter().map(|&o| o as u32).collect();
    let keys: Vec<u32> = keys_with_specials(n, &DISTRIBUTIONS[0], &mut rng);
    for word in [4u32, 5, 1000, u32::MAX] {
        let counts = Counts {
            indirect_count: true,
            indirect_segments: true,
            segment_word: Some(word),
        };
        let (got, _, poison) = record(&ctx, &plan, &keys, None, n, &offsets32, counts);
        let mut want = keys.clone();
        reference::segmented_sort_pairs::<u32, u32>(&mut want, None, &offsets, 0, 0, false);
        assert!(poison && got == want, "segment word {word}");
    }
}

/// A bound on the segments' length: at most the small limit, the plan records no merge rounds
/// and sorts such layouts exactly (pairs, direct and indirect counts); a segment longer than
/// the bound is left as some order of its own elements, nothing written outside the buffers.
#[test]
fn segment_length_bound() {
    let ctx = context();
    let mut rng = Rng(24);
    let n = 7000usize;
    let values: Vec<u32> = (0..n as u32).collect();
    let unbounded = ctx
        .segmented_sort_plan(&SegmentedSortDesc::new(
            KeyType::U32,
            ValueType::U32,
            n as u64,
            n as u64,
        ))
        .unwrap();
    let limit = unbounded.small_limit();
    assert!(!unbounded.small_segments_only() && unbounded.rounds(n as u64) > 0);
    for bound in [1, 64, 65, limit, limit + 1] {
        let plan = ctx
            .segmented_sort_plan(&SegmentedSortDesc {
                max_segment_len: Some(bound),
                // Sizes from 0 to the bound: twice as many segments as elements for a bound of 1.
                ..SegmentedSortDesc::new(KeyType::U32, ValueType::U32, n as u64, 4 * n as u64)
            })
            .unwrap();
        let small = bound <= limit;
        assert_eq!(plan.small_segments_only(), small, "bound {bound}");
        assert_eq!(plan.tiny_segments_only(), bound <= 64, "bound {bound}");
        assert_eq!(plan.rounds(n as u64) == 0, small, "bound {bound}");
        for indirect in [false, true] {
            let count = if indirect { 5555 } else { n };
            let counts = Counts {
                indirect_count: indirect,
                indirect_segments: indirect,
                segment_word: None,
            };
            // Within the bound: tiny segments, and sizes up to the bound.
            let within = |r: &mut Rng| (r.next_u64() % (bound + 1)) as usize;
            for offsets in [
                from_sizes(count, &mut rng, |r| (r.next_u32() % 65) as usize),
                from_sizes(count, &mut rng, within),
            ] {
                let offsets32: Vec<u32> = offsets.iter().map(|&o| o as u32).collect();
                let keys: Vec<u32> = keys_with_specials(n, &DISTRIBUTIONS[4], &mut rng);
                let (got_keys, got_values, poison) =
                    record(&ctx, &plan, &keys, Some(&values), count, &offsets32, counts);
                let (want_keys, want_values) = ascending(&keys, &values, count, &offsets);
                let what = format!("bound {bound} count {count} indirect {indirect}");
                assert!(poison, "{what}: poison overwritten");
                assert!(got_keys == want_keys && got_values == Some(want_values), "{what}");
            }
        }
        // A segment past the bound: its elements stay a permutation of themselves (keys with
        // their values), the rest is sorted where the plan is unbounded.
        let offsets = [0u64, 10, 10 + 3 * limit, n as u64];
        let offsets32: Vec<u32> = offsets.iter().map(|&o| o as u32).collect();
        let keys: Vec<u32> = keys_with_specials(n, &DISTRIBUTIONS[0], &mut rng);
        let counts = Counts::DIRECT;
        let (got_keys, got_values, poison) = record(&ctx, &plan, &keys, Some(&values), n, &offsets32, counts);
        let got_values = got_values.unwrap();
        assert!(poison, "bound {bound}: poison overwritten past a longer segment");
        let mut got: Vec<(u32, u32)> = got_keys.iter().copied().zip(got_values.iter().copied()).collect();
        let mut want: Vec<(u32, u32)> = keys.iter().copied().zip(values.iter().copied()).collect();
        for s in offsets.windows(2) {
            let (a, b) = (s[0] as usize, s[1] as usize);
            got[a..b].sort_unstable();
            want[a..b].sort_unstable();
        }
        assert!(
            got == want,
            "bound {bound}: a longer segment lost or moved elements"
        );
    }
}

/// Segments of every length at the kernels' boundaries (1-2, powers of two and their
/// neighbours up to the tile, the small limit and its neighbours), shuffled, with few distinct
/// keys so that stability shows in the values: unbounded, bounded to 64 (the lengths up to 64)
/// and bounded to the small limit (the lengths up to it), each exact against the CPU.
#[test]
fn segment_lengths_at_every_boundary() {
    let ctx = context();
    let mut rng = Rng(25);
    let unbounded = |max_segment_len: Option<u64>, n: usize, segments: usize| {
        ctx.segmented_sort_plan(&SegmentedSortDesc {
            max_segment_len,
            ..SegmentedSortDesc::new(KeyType::U32, ValueType::U32, n as u64, segments as u64)
        })
        .unwrap()
    };
    let small = unbounded(None, 1, 1).small_limit() as usize;
    let tile = 2 * small;
    let mut lengths: Vec<usize> = vec![0, 1, 2, 3, small - 1, small, small + 1, tile - 1, tile, tile + 1];
    let mut p = 4;
    while p <= tile {
        lengths.extend([p - 1, p, p + 1]);
        p *= 2;
    }
    for bound in [None, Some(64usize), Some(small)] {
        let mut picked: Vec<usize> = lengths
            .iter()
            .copied()
            .filter(|&l| bound.is_none_or(|b| l <= b))
            .flat_map(|l| [l, l, l])
            .collect();
        // A fixed shuffle, so that every length meets several neighbours.
        for i in (1..picked.len()).rev() {
            picked.swap(i, rng.next_u32() as usize % (i + 1));
        }
        let mut offsets = vec![0u64];
        for l in &picked {
            offsets.push(offsets.last().unwrap() + *l as u64);
        }
        let n = *offsets.last().unwrap() as usize;
        let plan = unbounded(bound.map(|b| b as u64), n, picked.len());
        let offsets32: Vec<u32> = offsets.iter().map(|&o| o as u32).collect();
        let values: Vec<u32> = (0..n as u32).collect();
        for dist in [&DISTRIBUTIONS[4], &DISTRIBUTIONS[3], &DISTRIBUTIONS[0]] {
            let keys: Vec<u32> = keys_with_specials(n, dist, &mut rng);
            let counts = Counts::DIRECT;
            let (got_keys, got_values, poison) =
                record(&ctx, &plan, &keys, Some(&values), n, &offsets32, counts);
            let (want_keys, want_values) = ascending(&keys, &values, n, &offsets);
            let what = format!("bound {bound:?}, {} keys, {n} elements", dist.0);
            assert!(poison, "{what}: poison overwritten");
            assert!(got_keys == want_keys, "{what}: keys");
            assert!(got_values == Some(want_values), "{what}: values (stability)");
        }
    }
}
