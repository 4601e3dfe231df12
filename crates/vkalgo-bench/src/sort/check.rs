//! The sort benchmark's data and checks: random keys, their ranks, the verification of a
//! sorted output, the per-dispatch times.

use ash::vk;
use vkalgo::sort::reference::rank_key;
use vkalgo::sort::ONESWEEP_STATS_OFFSET;
use vkalgo::{Context, GpuBuffer, KeyType, Result, SortArgs, ValueType};
use vkalgo_bench::harness::{download, full_barrier, random_u32, Timer};

/// Random keys as raw words: 4-byte keys one word per key, 8-byte keys two (floats with the
/// exponent's top bit clear: finite). `key_bits` other than 0 keeps each key below
/// 2^key_bits (unsigned keys).
pub(super) fn random_keys(key_type: KeyType, n: usize, seed: u64, key_bits: u32) -> Vec<u32> {
    let mut words = random_u32(n * (key_type.bytes() as usize / 4), seed);
    match key_type {
        KeyType::F32 => words.iter_mut().for_each(|w| *w &= 0xbfff_ffff),
        KeyType::F64 => words
            .iter_mut()
            .skip(1)
            .step_by(2)
            .for_each(|w| *w &= 0xbfff_ffff),
        _ => {}
    }
    if key_bits != 0 && matches!(key_type, KeyType::U32 | KeyType::U64) {
        let mask = u64::MAX >> (64 - key_bits.min(key_type.bits()));
        if key_type == KeyType::U64 {
            for pair in words.chunks_exact_mut(2) {
                pair[0] &= mask as u32;
                pair[1] &= (mask >> 32) as u32;
            }
        } else {
            words.iter_mut().for_each(|w| *w &= mask as u32);
        }
    }
    words
}

pub(super) fn ranks(key_type: KeyType, words: &[u32]) -> Vec<u64> {
    match key_type {
        KeyType::U64 => bytemuck::cast_slice::<u32, u64>(words)
            .iter()
            .map(|&k| rank_key(k, 0, 0, false))
            .collect(),
        KeyType::F32 => words
            .iter()
            .map(|&k| rank_key(f32::from_bits(k), 0, 0, false))
            .collect(),
        KeyType::I32 => words.iter().map(|&k| rank_key(k as i32, 0, 0, false)).collect(),
        KeyType::I64 => bytemuck::cast_slice::<u32, u64>(words)
            .iter()
            .map(|&k| rank_key(k as i64, 0, 0, false))
            .collect(),
        KeyType::F64 => bytemuck::cast_slice::<u32, u64>(words)
            .iter()
            .map(|&k| rank_key(f64::from_bits(k), 0, 0, false))
            .collect(),
        _ => words.iter().map(|&k| rank_key(k, 0, 0, false)).collect(),
    }
}

/// Checks the sorted output (see the module docs). Returns a description of the first error.
pub(super) fn verify(
    input: &[u64],
    output: &[u64],
    values: Option<&[u32]>,
) -> std::result::Result<(), String> {
    if let Some(i) = output.windows(2).position(|w| w[0] > w[1]) {
        return Err(format!("not sorted at {i}"));
    }
    if let Some(values) = values {
        let mut seen = vec![false; input.len()];
        for (i, (&k, &v)) in output.iter().zip(values).enumerate() {
            let v = v as usize;
            if v >= input.len() || seen[v] || input[v] != k {
                return Err(format!("value {v} at {i} is not the index of its key"));
            }
            seen[v] = true;
            if i > 0 && output[i - 1] == k && values[i - 1] as usize > v {
                return Err(format!("equal keys out of input order at {i}"));
            }
        }
        return Ok(());
    }
    if input.len() <= 1 << 24 {
        let mut expected = input.to_vec();
        expected.sort_unstable();
        return if expected == output {
            Ok(())
        } else {
            Err("differs from the CPU sort".into())
        };
    }
    let fingerprint = |v: &[u64]| {
        v.iter().fold((0u64, 0u64), |(s, m), &k| {
            let h = k.wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(29) ^ k;
            (s.wrapping_add(k), m.wrapping_add(h.wrapping_mul(h | 1)))
        })
    };
    if fingerprint(input) == fingerprint(output) {
        Ok(())
    } else {
        Err("not a permutation of the input (fingerprint)".into())
    }
}

/// GPU time of each dispatch of one sort (after restoring its input), as text.
pub(super) fn phase_times(
    ctx: &Context,
    timer: &Timer,
    plan: &vkalgo::SortPlan,
    args: &SortArgs,
    restore: impl Fn(vk::CommandBuffer) -> Result<()>,
) -> Result<String> {
    let stamps = timer.timestamps(|cmd, pool| unsafe {
        restore(cmd)?;
        full_barrier(ctx, cmd);
        ctx.device()
            .cmd_write_timestamp(cmd, vk::PipelineStageFlags::BOTTOM_OF_PIPE, pool, 0);
        Ok(1 + plan.record_profiled(cmd, args, pool, 1)?.1)
    })?;
    Ok(stamps
        .windows(2)
        .map(|w| format!("{:.4}", w[1] - w[0]))
        .collect::<Vec<_>>()
        .join(" "))
}

/// Checks the sorted output words of `key_type` keys (sorted on bits below `end_bit`, 0: all)
/// against the input words (see the module docs of the sort benchmark).
pub(super) fn check_output(
    key_type: KeyType,
    value_type: ValueType,
    end_bit: u32,
    words: &[u32],
    out_words: &[u32],
    out_values: Option<&[u32]>,
) -> std::result::Result<(), String> {
    let mask = if end_bit == 0 || end_bit >= 64 {
        u64::MAX
    } else {
        (1u64 << end_bit) - 1
    };
    let masked = |w: &[u32]| -> Vec<u64> { ranks(key_type, w).iter().map(|r| r & mask).collect() };
    if end_bit == 0 || value_type != ValueType::None {
        verify(&masked(words), &masked(out_words), out_values)
    } else {
        // Keys only on a bit range: sorted on the range and a permutation.
        let out_ranks = ranks(key_type, out_words);
        let sorted = out_ranks.windows(2).all(|w| w[0] & mask <= w[1] & mask);
        let mut a = ranks(key_type, words);
        let mut b = out_ranks;
        a.sort_unstable();
        b.sort_unstable();
        if sorted && a == b {
            Ok(())
        } else {
            Err("bit-range sort wrong".to_string())
        }
    }
}

/// The Onesweep counters of the last sort (fallbacks, timeouts, polls, look-back steps) as
/// text; prints the per-tile cycle counts where the build counted them.
pub(super) fn onesweep_stats(
    ctx: &Context,
    scratch: &GpuBuffer,
    plan: &vkalgo::SortPlan,
    n: u64,
) -> Result<String> {
    let words: Vec<u32> = download(ctx, scratch, (ONESWEEP_STATS_OFFSET / 4 + 16) as usize)?;
    let w = &words[(ONESWEEP_STATS_OFFSET / 4) as usize..];
    let tile_passes = n.div_ceil(plan.tile_size()) * plan.pass_count() as u64;
    if w[8..14].iter().any(|&c| c != 0) {
        let clocks: Vec<String> = w[8..14]
            .iter()
            .map(|&c| format!("{}", c as u64 * 16 / tile_passes.max(1)))
            .collect();
        println!(
                "cycles per tile (ticket, key loads + ballots, counter updates, digit scan + ranks + staging, look-back, scatter): {}; most workgroups in flight: {}; look-back per tile: {:.2} idle steps, {:.2} predecessors added",
                clocks.join(" "),
                w[15],
                w[6] as f64 / tile_passes.max(1) as f64,
                w[7] as f64 / tile_passes.max(1) as f64
            );
    }
    Ok(format!(
            "fallbacks {}, ring-wait timeouts {}, tail-wait timeouts {}, ring polls {}, tail polls {}, look-back steps {} ({} tiles x {} passes)",
            w[0], w[1], w[2], w[3], w[4], w[5], n / plan.tile_size(), plan.pass_count()
        ))
}
