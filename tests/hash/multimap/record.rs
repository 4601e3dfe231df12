//! The multimap's record layer end to end: an indirect insert with a failure counter, then in
//! one command buffer an indirect count, vkalgo's exclusive scan of the counts into u32 offsets
//! and a retrieve cut short by its capacity, and a retrieve with u64 offsets.

use super::*;
use vkalgo::{ScanArgs, ScanDesc, ScanOp};

#[test]
fn end_to_end() {
    let ctx = context();
    round_trip::<u32, u32>(&ctx, Some(false), 32);
    if ctx.profile().int64_atomics {
        round_trip::<u32, u32>(&ctx, Some(true), 64);
        round_trip::<u64, u32>(&ctx, None, 32);
        round_trip::<u64, u64>(&ctx, None, 64);
    }
}

/// One host-visible buffer (poisoned) holding every input and output, at byte offsets that are
/// not multiples of 16 on purpose.
struct Fixture<K, V> {
    buf: GpuBuffer,
    keys: Vec<K>,
    values: Vec<V>,
    queries: Vec<K>,
    /// Pairs inserted (the indirect count), queries counted (the indirect query count).
    used: u64,
    q_used: u64,
    k_at: u64,
    v_at: u64,
    /// 4 u32: insert count, failed count, query count, size.
    c_at: u64,
    q_at: u64,
    cnt_at: u64,
    o_at: u64,
    o64_at: u64,
    vo_at: u64,
    /// Values each of the two output regions can take.
    room: u64,
}

impl<K: HashTestKey, V: HashTestValue> Fixture<K, V> {
    fn new(ctx: &Context) -> Self {
        let mut rng = Rng(31);
        let (mut keys, values, hot, absent) = adversarial::<K, V>(&mut rng, 800);
        keys[10] = K::from_u64(K::MAX); // reserved: skipped and counted as failed
        let n = keys.len() as u64;
        let used = n - 100;
        let queries: Vec<K> = queries_of(&keys[..used as usize], hot, &absent)
            .into_iter()
            .filter(|k| !k.is_reserved())
            .collect();
        let nq = queries.len() as u64;
        let (kb, vb) = (K::TYPE.bytes(), V::TYPE.bytes());
        let k_at = 24;
        let v_at = (k_at + n * kb + 8).next_multiple_of(8);
        let c_at = (v_at + n * vb).next_multiple_of(16);
        let q_at = c_at + 24;
        let cnt_at = q_at + nq * kb + 4;
        let o_at = cnt_at + nq * 4 + 4;
        let o64_at = (o_at + nq * 4).next_multiple_of(8);
        let vo_at = o64_at + nq * 8;
        let room = 2 * n + 16; // each key is queried twice
        let mut buf = poisoned_bytes(ctx, vo_at + 2 * room * vb);
        put(&mut buf, k_at, &keys);
        put(&mut buf, v_at, &values);
        put(&mut buf, c_at, &[used as u32, 0, (nq - 37) as u32]);
        put(&mut buf, q_at, &queries);
        Fixture {
            buf,
            keys,
            values,
            queries,
            used,
            q_used: nq - 37,
            k_at,
            v_at,
            c_at,
            q_at,
            cnt_at,
            o_at,
            o64_at,
            vo_at,
            room,
        }
    }

    fn nq(&self) -> u64 {
        self.queries.len() as u64
    }

    fn query_count(&self) -> ElementCount {
        ElementCount::Indirect(self.buf.sub_range(self.c_at + 8, 4))
    }
}

fn round_trip<K: HashTestKey, V: HashTestValue>(ctx: &Context, packed: Option<bool>, bucket: u32) {
    let what = format!("{:?}/{:?} packed {packed:?} bucket {bucket}", K::TYPE, V::TYPE);
    let mm = multimap::<K, V>(ctx, 5000, packed, bucket);
    let mut f = Fixture::<K, V>::new(ctx);
    let model = indirect_insert(ctx, &mm, &mut f, &what);
    count_scan_retrieve(ctx, &mm, &mut f, &model, &what);
    retrieve_u64_offsets(ctx, &mm, &mut f, &model, &what);
}

/// The insert of the first `used` pairs (indirect count) with the failure counter: the
/// reserved key fails, everything else is stored.
fn indirect_insert<K: HashTestKey, V: HashTestValue>(
    ctx: &Context,
    mm: &HashMultimap,
    f: &mut Fixture<K, V>,
    what: &str,
) -> MultimapModel {
    let n = f.keys.len() as u64;
    let (kb, vb) = (K::TYPE.bytes(), V::TYPE.bytes());
    let insert = HashMultimapInsertArgs {
        keys: f.buf.sub_range(f.k_at, n * kb),
        values: f.buf.sub_range(f.v_at, n * vb),
        count: ElementCount::Indirect(f.buf.sub_range(f.c_at, 4)),
        max_count: n,
        failed_count: Some(f.buf.sub_range(f.c_at + 4, 4)),
    };
    ctx.submit_and_wait(|cmd| unsafe {
        host_to_compute(ctx, cmd);
        mm.record_insert(cmd, &insert)?;
        compute_to_host(ctx, cmd);
        Ok(())
    })
    .unwrap();
    assert_eq!(
        get::<u32>(&mut f.buf, f.c_at + 4, 1)[0],
        1,
        "{what}: failed count"
    );
    let mut model = MultimapModel::new();
    for i in (0..f.used as usize).filter(|&i| i != 10) {
        model.insert(&[f.keys[i].to_u64()], &[f.values[i].to_u64()]);
    }
    assert_eq!(mm.size().unwrap(), model.len(), "{what}");
    model
}

/// Count (indirect), vkalgo's exclusive scan of the counts, a retrieve cut at `capacity` and
/// the size, in one command buffer.
fn count_scan_retrieve<K: HashTestKey, V: HashTestValue>(
    ctx: &Context,
    mm: &HashMultimap,
    f: &mut Fixture<K, V>,
    model: &MultimapModel,
    what: &str,
) {
    let (nq, kb, vb) = (f.nq(), K::TYPE.bytes(), V::TYPE.bytes());
    let q64 = to64(&f.queries);
    let expected: Vec<u64> = q64.iter().map(|&q| model.count(q)).collect();
    let capacity = expected[..f.q_used as usize].iter().sum::<u64>() - 3;
    let plan = ctx.scan_plan(&ScanDesc::new(ScanOp::Exclusive, nq)).unwrap();
    let scratch_bytes = plan.memory_requirements().scratch.size.max(16);
    let scratch = GpuBuffer::new(ctx, scratch_bytes, MemoryLocation::GpuOnly, "scan scratch").unwrap();
    let count = HashMultimapCountArgs {
        keys: f.buf.sub_range(f.q_at, nq * kb),
        counts_out: f.buf.sub_range(f.cnt_at, nq * 4),
        count: f.query_count(),
        max_count: nq,
    };
    let scan = ScanArgs {
        input: f.buf.sub_range(f.cnt_at, nq * 4),
        output: f.buf.sub_range(f.o_at, nq * 4),
        scratch: scratch.range(),
        count: f.query_count(),
    };
    let retrieve = HashMultimapRetrieveArgs {
        keys: f.buf.sub_range(f.q_at, nq * kb),
        offsets: HashMultimapOffsets::U32(f.buf.sub_range(f.o_at, nq * 4)),
        values_out: f.buf.sub_range(f.vo_at, capacity * vb),
        capacity,
        tags: None,
        count: f.query_count(),
        max_count: nq,
    };
    let size = HashSizeArgs {
        out: f.buf.sub_range(f.c_at + 12, 4),
    };
    ctx.submit_and_wait(|cmd| unsafe {
        host_to_compute(ctx, cmd);
        mm.record_count(cmd, &count)?;
        mm.record_barrier(cmd);
        plan.record(cmd, &scan)?;
        mm.record_barrier(cmd);
        mm.record_retrieve(cmd, &retrieve)?;
        mm.record_size(cmd, &size)?;
        compute_to_host(ctx, cmd);
        Ok(())
    })
    .unwrap();
    let counts = get::<u32>(&mut f.buf, f.cnt_at, nq as usize);
    for (i, &c) in counts.iter().enumerate() {
        if (i as u64) < f.q_used {
            assert_eq!(c as u64, expected[i], "{what}: count {i}");
        } else {
            assert_eq!(c, 0xA5A5_A5A5, "{what}: count written past the indirect count");
        }
    }
    let size = get::<u32>(&mut f.buf, f.c_at + 12, 1)[0];
    assert_eq!(size as u64, model.len(), "{what}: record_size");
    let offsets = get::<u32>(&mut f.buf, f.o_at, f.q_used as usize);
    let got = values64(&get::<V>(&mut f.buf, f.vo_at, f.room as usize));
    let mut start = 0;
    for i in 0..f.q_used as usize {
        assert_eq!(offsets[i] as u64, start, "{what}: scanned offset {i}");
        let end = start + expected[i];
        if end <= capacity {
            let mut mine = got[start as usize..end as usize].to_vec();
            mine.sort_unstable();
            assert_eq!(mine, model.sorted_values(q64[i]), "{what}: query {i}");
        }
        start = end;
    }
    let poison = V::from_u64(0xA5A5_A5A5_A5A5_A5A5).to_u64();
    assert!(
        got[capacity as usize..].iter().all(|&v| v == poison),
        "{what}: values written past the capacity"
    );
}

/// A retrieve of every query with u64 offsets (from the model), a direct count and room for
/// exactly the total.
fn retrieve_u64_offsets<K: HashTestKey, V: HashTestValue>(
    ctx: &Context,
    mm: &HashMultimap,
    f: &mut Fixture<K, V>,
    model: &MultimapModel,
    what: &str,
) {
    let (nq, kb, vb) = (f.nq(), K::TYPE.bytes(), V::TYPE.bytes());
    let q64 = to64(&f.queries);
    let mut offsets = vec![0u64];
    for &q in &q64 {
        offsets.push(offsets.last().unwrap() + model.count(q));
    }
    let total = offsets[nq as usize];
    put(&mut f.buf, f.o64_at, &offsets[..nq as usize]);
    let out_at = f.vo_at + f.room * vb;
    let retrieve = HashMultimapRetrieveArgs {
        keys: f.buf.sub_range(f.q_at, nq * kb),
        offsets: HashMultimapOffsets::U64(f.buf.sub_range(f.o64_at, nq * 8)),
        values_out: f.buf.sub_range(out_at, total * vb),
        capacity: total,
        tags: None,
        count: ElementCount::Direct(nq),
        max_count: 0,
    };
    ctx.submit_and_wait(|cmd| unsafe {
        host_to_compute(ctx, cmd);
        mm.record_retrieve(cmd, &retrieve)?;
        compute_to_host(ctx, cmd);
        Ok(())
    })
    .unwrap();
    let got = values64(&get::<V>(&mut f.buf, out_at, f.room as usize));
    model
        .check_retrieve(&q64, &offsets, &got[..total as usize])
        .unwrap_or_else(|e| panic!("{what}: u64 offsets: {e}"));
    let poison = V::from_u64(0xA5A5_A5A5_A5A5_A5A5).to_u64();
    assert!(
        got[total as usize..].iter().all(|&v| v == poison),
        "{what}: past the total"
    );
}

/// A retrieve with tags writes a join's pairs in one pass: at every position where a value of
/// query i is written, tags_out holds query i's tag; nothing past the values is written.
#[test]
fn retrieve_with_tags_writes_join_pairs() {
    let ctx = context();
    let mm = HashMultimap::new(&ctx, &desc::<u32, u32>(4096)).unwrap();
    // Build side: keys 0..500, a third of them three times, payload = row.
    let build_keys: Vec<u32> = (0..800u32)
        .map(|r| if r < 500 { r } else { (r - 500) * 3 % 500 })
        .collect();
    let build_rows: Vec<u32> = (0..800u32).collect();
    mm.insert(&build_keys, &build_rows).unwrap();
    // Probe side: keys 0..700 (200 absent), tag = 1_000_000 + probe row.
    let probe: Vec<u32> = (0..700u32).map(|i| (i * 37) % 700).collect();
    let tags: Vec<u32> = (0..700u32).map(|i| 1_000_000 + i).collect();
    let mut counts = vec![0u32; probe.len()];
    mm.count(&probe, &mut counts).unwrap();
    let mut offsets = vec![0u32];
    for &c in &counts {
        offsets.push(offsets.last().unwrap() + c);
    }
    let total = *offsets.last().unwrap() as u64;
    let n = probe.len() as u64;
    let (k_at, o_at, t_at) = (0u64, 4096u64, 8192u64);
    let (v_at, to_at) = (12288u64, 12288 + total * 4 + 64);
    let mut buf = GpuBuffer::new(&ctx, to_at + total * 4 + 64, MemoryLocation::CpuToGpu, "t").unwrap();
    {
        let m = buf.mapped().unwrap();
        m.fill(0xA5);
        m[k_at as usize..(k_at + n * 4) as usize].copy_from_slice(bytemuck::cast_slice(&probe));
        m[o_at as usize..(o_at + n * 4) as usize]
            .copy_from_slice(bytemuck::cast_slice(&offsets[..probe.len()]));
        m[t_at as usize..(t_at + n * 4) as usize].copy_from_slice(bytemuck::cast_slice(&tags));
    }
    let retrieve = HashMultimapRetrieveArgs {
        keys: buf.sub_range(k_at, n * 4),
        offsets: HashMultimapOffsets::U32(buf.sub_range(o_at, n * 4)),
        values_out: buf.sub_range(v_at, total * 4),
        capacity: total,
        tags: Some(HashMultimapTags {
            tags: buf.sub_range(t_at, n * 4),
            tags_out: buf.sub_range(to_at, total * 4),
        }),
        count: ElementCount::Direct(n),
        max_count: n,
    };
    ctx.submit_and_wait(|cmd| unsafe {
        host_to_compute(&ctx, cmd);
        mm.record_retrieve(cmd, &retrieve)?;
        compute_to_host(&ctx, cmd);
        Ok(())
    })
    .unwrap();
    let values = get::<u32>(&mut buf, v_at, total as usize);
    let tags_out = get::<u32>(&mut buf, to_at, total as usize + 4);
    assert!(
        tags_out[total as usize..].iter().all(|&w| w == 0xA5A5_A5A5),
        "tags written past the values"
    );
    for (i, &key) in probe.iter().enumerate() {
        let (a, b) = (offsets[i] as usize, offsets[i + 1] as usize);
        let mut got: Vec<u32> = values[a..b].to_vec();
        got.sort_unstable();
        let mut want: Vec<u32> = (0..800u32).filter(|&r| build_keys[r as usize] == key).collect();
        want.sort_unstable();
        assert_eq!(got, want, "probe {i} (key {key}): build rows");
        assert!(tags_out[a..b].iter().all(|&t| t == tags[i]), "probe {i}: tags");
    }
    // Tags without room for them are refused, nothing recorded.
    let short = HashMultimapRetrieveArgs {
        tags: Some(HashMultimapTags {
            tags: buf.sub_range(t_at, n * 4),
            tags_out: buf.sub_range(to_at, total * 4 - 4),
        }),
        ..retrieve
    };
    ctx.submit_and_wait(|cmd| unsafe {
        assert!(matches!(
            mm.record_retrieve(cmd, &short),
            Err(Error::InvalidArgument(_))
        ));
        Ok(())
    })
    .unwrap();
}
