//! Large-count check of the sets: the set operations whose arrays pass 2^31 elements,
//! through the record layer, checked EXACTLY against a CPU model: `contains` of 2^31 + 5
//! queries (one flag each) and `to_array` of a set of more than 2^31 values (at `--log2 31`
//! the whole universe less 2^20 random values: 2^32 - 2^20 or a few more values, 16 GiB;
//! smaller `--log2` N: [0, 2^(N+1)) less 2^(N-11) values). Peak device memory: about 16 GiB;
//! host memory: about 16 GiB.

use std::time::Instant;
use vkalgo::set::SET_SCRATCH_BYTES;
use vkalgo::{Context, ElementCount, GpuSet, GpuSetContainsArgs, GpuSetToArrayArgs, Result};
use vkalgo_bench::harness::Timer;
use vkalgo_bench::large::*;

/// The contains check's set: [2^31, 2^31 + 2^30), [2^32 - 100, 2^32) and 2^22 random values.
const RANGES: [(u64, u64); 2] = [(1 << 31, (1 << 31) + (1 << 30)), ((1 << 32) - 100, 1 << 32)];

fn refused(rows: &mut Vec<Row>, what: &str, n: u64, m: String) {
    println!("{what}: {m}");
    rows.push(Row::refused(what, n, &m));
}

fn set_check(ctx: &Context, o: &Options, n: u64, rows: &mut Vec<Row>) -> Result<()> {
    contains_check(ctx, o, n, rows)?;
    to_array_check(ctx, o, o.log2, rows)
}

fn contains_check(ctx: &Context, o: &Options, n: u64, rows: &mut Vec<Row>) -> Result<()> {
    let what = format!("set contains, {n} queries");
    let t = Instant::now();
    let sparse: Vec<u32> = (0..1u64 << 22).map(|i| random_at(i, 121)).collect();
    let mut set = GpuSet::from_values(ctx, &sparse)?;
    for &(begin, end) in &RANGES {
        set.insert_range(begin, end)?;
    }
    let queries = par_random(n, 122, o.threads);
    println!("{what}: set built and queries generated in {:.0} ms", ms_since(t));
    let bytes = n * 4;
    let buffers = (|| -> std::result::Result<_, String> {
        Ok((
            RawBuffer::new(ctx, OFFSET + bytes, "contains queries")?,
            RawBuffer::new(ctx, OFFSET + bytes, "contains flags")?,
        ))
    })();
    let (queries_buf, flags_buf) = match buffers {
        Ok(b) => b,
        Err(m) => {
            refused(rows, &what, n, m);
            return Ok(());
        }
    };
    upload_u32(ctx, queries_buf.buffer, OFFSET, &queries, o.threads)?;
    let timer = Timer::new(ctx)?;
    let (values, flags) = (queries_buf.range(OFFSET, bytes), flags_buf.range(OFFSET, bytes));
    let ms = time_warm(ctx, &timer, true, |cmd| {
        let args = GpuSetContainsArgs {
            values,
            count: ElementCount::Direct(n),
            max_count: n,
            flags,
        };
        unsafe { set.record_contains(cmd, &args)? };
        Ok(())
    })?;
    let t = Instant::now();
    // The model: a flat bitmap of the universe (512 MiB).
    let mut model = vec![0u64; 1 << 26];
    for &v in &sparse {
        model[(v >> 6) as usize] |= 1 << (v & 63);
    }
    for &(begin, end) in &RANGES {
        for v in begin..end {
            model[(v >> 6) as usize] |= 1 << (v & 63);
        }
    }
    let (queries, model) = (&queries, &model);
    let wrong = download_compare(ctx, flags_buf.buffer, OFFSET, n, o.threads, o.corrupt, |p| {
        let v = queries[p as usize];
        ((model[(v >> 6) as usize] >> (v & 63)) & 1) as u32
    })?
    .map(|(p, g, w)| {
        format!(
            "first wrong flag at {p} (value {}): got {g} want {w}",
            queries[p as usize]
        )
    });
    println!(
        "{what}: GPU {:.2} ms; downloaded and compared in {:.0} ms",
        ms,
        ms_since(t)
    );
    rows.push(Row::gpu(&what, n, ms, wrong));
    Ok(())
}

fn to_array_check(ctx: &Context, o: &Options, log2: u32, rows: &mut Vec<Row>) -> Result<()> {
    let end = 1u64 << (log2 + 1).min(32);
    let what = format!(
        "set to_array, [0, {end}) less 2^{} random values",
        log2.max(11) - 11
    );
    let what = what.as_str();
    let t = Instant::now();
    let mut removed: Vec<u32> = (0..1u64 << (log2.max(11) - 11))
        .map(|i| (random_at(i, 131) as u64 % end) as u32)
        .collect();
    // The first and last values stay in; a whole chunk's first and last values go.
    removed.retain(|&v| v != 0 && v as u64 != end - 1);
    removed.extend(
        [65_536 * 7, 65_536 * 8 - 1]
            .into_iter()
            .filter(|&v| (v as u64) < end - 1),
    );
    let mut set = GpuSet::new(ctx)?;
    set.insert_range(0, end)?;
    set.remove(&removed)?;
    removed.sort_unstable();
    removed.dedup();
    let count = end - removed.len() as u64;
    println!("{what}: set built in {:.0} ms ({count} values)", ms_since(t));
    let buffers = (|| -> std::result::Result<_, String> {
        Ok((
            RawBuffer::new(ctx, OFFSET + count * 4, "to_array output")?,
            RawBuffer::new(ctx, OFFSET + 16, "to_array count")?,
            RawBuffer::new(ctx, OFFSET + SET_SCRATCH_BYTES, "to_array scratch")?,
        ))
    })();
    let (out_buf, count_buf, scratch_buf) = match buffers {
        Ok(b) => b,
        Err(m) => {
            refused(rows, what, count, m);
            return Ok(());
        }
    };
    let timer = Timer::new(ctx)?;
    let (out, count_out, scratch) = (
        out_buf.range(OFFSET, count * 4),
        count_buf.range(OFFSET, 8),
        scratch_buf.range(OFFSET, SET_SCRATCH_BYTES),
    );
    let ms = time_warm(ctx, &timer, true, |cmd| {
        let args = GpuSetToArrayArgs {
            out,
            capacity: count,
            count_out,
            scratch,
        };
        unsafe { set.record_to_array(cmd, &args)? };
        Ok(())
    })?;
    let t = Instant::now();
    let words = download_u32(ctx, count_buf.buffer, OFFSET, 2, 1)?;
    let got_count = (words[0] as u64 | (words[1] as u64) << 32) ^ o.corrupt as u64;
    let wrong = if got_count != count {
        Some(format!("cardinality {got_count} (want {count})"))
    } else {
        // The value at output position p: p + k, k the removed values below it (the first k
        // with removed[k] - k > p).
        // removed[k] - k (non-decreasing) is the number of values kept below removed[k].
        let kept_below: Vec<u64> = removed
            .iter()
            .enumerate()
            .map(|(k, &r)| r as u64 - k as u64)
            .collect();
        let kept_below = &kept_below;
        download_compare(ctx, out_buf.buffer, OFFSET, count, o.threads, o.corrupt, |p| {
            (p + kept_below.partition_point(|&g| g <= p) as u64) as u32
        })?
        .map(wrong_at("value"))
    };
    println!(
        "{what}: GPU {:.2} ms; downloaded and compared in {:.0} ms",
        ms,
        ms_since(t)
    );
    rows.push(Row::gpu(what, count, ms, wrong));
    Ok(())
}

#[test]
#[ignore = "large-count check: run on the GPU machine with --ignored"]
fn large_set() {
    run("sets", &|ctx, o, rows| set_check(ctx, o, o.count(), rows));
}

#[test]
fn large_set_self_test() {
    self_test("sets", &|ctx, o, rows| set_check(ctx, o, o.count(), rows));
}
