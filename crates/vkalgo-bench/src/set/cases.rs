//! The set benchmark's operands, its build from sorted values and its operations with their
//! cardinalities.

use super::*;
use vkalgo::{ElementCount, GpuSetCardinalityBatchArgs, GpuSetInsertSortedArgs, GpuSetOpArgs};
use vkalgo_bench::harness::median;

/// The two operands of a case: their values (a, b) and sets (a, b), and the pool blocks of a as
/// built from values (bitmaps, arrays).
type Operands = (Vec<u32>, Vec<u32>, GpuSet, GpuSet, (u32, u32));

impl Set<'_> {
    /// Builds the operands of `case` from values, reports their memory, then holds them as
    /// pyroaring's BitMap(values) does: after run_optimize (run chunks where smaller), unless
    /// --no-run-optimize; packed (GpuSet::pack: the directory of the non-empty chunks only)
    /// with --packed, else flat.
    pub(super) fn operands(&self, case: &str, n: usize) -> Result<Operands> {
        let ctx = self.b.ctx;
        let va = case_values(case, n, 1);
        let vb = case_values(case, n, 2);
        let mut a = GpuSet::from_values(ctx, &va)?;
        let mut b = GpuSet::from_values(ctx, &vb)?;
        let plain = a.memory_bytes().to_string();
        report::result("set_memory_plain_bytes", case, va.len() as u64, 0.0, 0.0, &plain);
        let plain_blocks = a.pool_blocks();
        if self.run_optimize {
            for s in [&mut a, &mut b] {
                s.run_optimize()?;
                s.shrink_to_fit()?;
            }
        }
        let roaring_a = a.serialized_size()?;
        print_memory(case, "", &a, va.len(), roaring_a);
        a.pack()?;
        print_memory(case, "packed_", &a, va.len(), roaring_a);
        if self.packed {
            b.pack()?;
        } else {
            a.unpack()?;
        }
        Ok((va, vb, a, b, plain_blocks))
    }

    /// The build from sorted values (at most 2^24 of them) into an emptied set whose pools fit
    /// the result (a build from values writes arrays and bitmaps: the blocks of a before
    /// run_optimize, `plain_blocks`); the emptying is untimed. Returns the built set.
    pub(super) fn build_sorted(&self, case: &str, va: &[u32], (bm, ar): (u32, u32)) -> Result<GpuSet> {
        let ctx = self.b.ctx;
        let sorted = GpuBuffer::new(ctx, va.len() as u64 * 4, MemoryLocation::GpuOnly, "bench sorted")?;
        vkalgo_bench::harness::upload(ctx, &sorted, va)?;
        let mut d = GpuSet::from_values(ctx, va)?;
        d.reserve(bm, ar)?;
        let batch = va.len().min(1 << 24);
        let (scratch, empty) = (self.scratch.range(), SetOperand::Set(&self.empty));
        let status = |offset| self.status.sub_range(offset, SET_STATUS_BYTES);
        let emptied = GpuSetOpArgs::new(empty, empty, SetOp::And, scratch, status(0));
        let insert = GpuSetInsertSortedArgs {
            sorted: sorted.sub_range(0, batch as u64 * 4),
            count: ElementCount::Direct(batch as u64),
            max_count: batch as u64,
            remove: false,
            scratch,
            status: status(64),
        };
        let timing = Timing::warmup_then_warm(0, self.reps as usize);
        let times = self.b.time(
            timing,
            |cmd, _, _| unsafe { d.record_op(cmd, &emptied) },
            |cmd, _| unsafe { d.record_insert_sorted(cmd, &insert) },
        )?;
        assert_status_ok(ctx, &self.status, 64, "build")?;
        assert!(d.to_vec()? == va[..batch], "build: wrong set");
        result_line("build_sorted", case, batch, median(times), "");
        if self.pass_times {
            // The emptying operation's passes come first, then the build's.
            self.b.pass_times(|cmd| unsafe {
                d.record_op(cmd, &emptied)?;
                d.record_barrier(cmd);
                d.record_insert_sorted(cmd, &insert)
            })?;
        }
        Ok(d)
    }

    /// Operation `op` of the operands into `d`: through `record_op`, then reserved (the
    /// one-pass path in three passes, without the counting and check passes) as
    /// `set_<op>_reserved`; then its cardinality, sixteen of them one after another and as one
    /// batch.
    pub(super) fn op(
        &self,
        case: &str,
        d: &mut GpuSet,
        (a, b): (&GpuSet, &GpuSet),
        (va, vb): (&[u32], &[u32]),
        op: SetOp,
    ) -> Result<()> {
        // Once through the host call, then free blocks for the bound the one-pass path needs
        // (as an engine recording operations would reserve them): a recorded operation counts
        // the free blocks before it gives d's old ones back.
        d.assign(SetOperand::Set(a), SetOperand::Set(b), op)?;
        let want = merge(va, vb, op);
        for (reserved, suffix) in [(false, ""), (true, "_reserved")] {
            d.reserve_for_op(SetOperand::Set(a), SetOperand::Set(b), op)?;
            let times = self.time(self.pass_times && reserved, |cmd| unsafe {
                self.record_set_op(d, cmd, a, b, op, reserved)
            })?;
            let name = format!("{op:?}{suffix}").to_lowercase();
            assert_status_ok(self.b.ctx, &self.status, 0, &name)?;
            assert!(d.to_vec()? == want, "{name}: wrong result");
            let bitmap_bytes = 3 * (a.pool_blocks().0 as u64 * 8192);
            let ms = median(times);
            let share = 100.0 * bitmap_bytes as f64 / (ms * 1e-3) / 1e9 / self.b.yard.gbs;
            result_line(
                &name,
                case,
                va.len() + vb.len(),
                ms,
                &format!("{share:.1}%copyBW(bitmap bytes)"),
            );
        }
        self.cardinalities_of(case, (a, b), va.len() + vb.len(), op, want.len() as u64)
    }

    /// The cardinality of `a op b` (`want`; `n`: the values of both): alone, sixteen times
    /// one after another as the record layer's single calls (a barrier between them), and as
    /// one batch of sixteen pairs.
    fn cardinalities_of(
        &self,
        case: &str,
        (a, b): (&GpuSet, &GpuSet),
        n: usize,
        op: SetOp,
        want: u64,
    ) -> Result<()> {
        let ctx = self.b.ctx;
        let times = self.time(self.pass_times, |cmd| unsafe { self.record_card(cmd, a, b, op) })?;
        assert_card_status(ctx, &self.status, want, &format!("{op:?}"))?;
        assert_eq!(GpuSet::op_cardinality(a, b, op)?, want);
        result_line(
            &format!("{op:?}_cardinality").to_lowercase(),
            case,
            n,
            median(times),
            "",
        );
        let times = self.time(false, |cmd| unsafe {
            for _ in 0..CARD_BATCH {
                self.record_card(cmd, a, b, op)?;
            }
            Ok(())
        })?;
        assert_card_status(ctx, &self.status, want, &format!("{op:?} x16"))?;
        let name = format!("{op:?}_cardinality_x16").to_lowercase();
        result_line(&name, case, CARD_BATCH * n, median(times), "");
        let pairs = vec![(a, b); CARD_BATCH];
        let args = GpuSetCardinalityBatchArgs {
            path: card_path(),
            ..GpuSetCardinalityBatchArgs::new(
                &pairs,
                op,
                self.batch_scratch.range(),
                self.batch_status.range(),
            )
        };
        let times = self.time(false, |cmd| unsafe {
            GpuSet::record_op_cardinality_batch(cmd, &args)
        })?;
        let words: Vec<u32> = vkalgo_bench::harness::download(ctx, &self.batch_status, 8 * CARD_BATCH)?;
        for (i, w) in words.chunks(8).enumerate() {
            let got: SetOpStatus = bytemuck::pod_read_unaligned(bytemuck::cast_slice(w));
            assert_eq!(got.cardinality(), want, "{op:?} batch pair {i}");
        }
        let name = format!("{op:?}_cardinality_batch16").to_lowercase();
        result_line(&name, case, CARD_BATCH * n, median(times), "");
        Ok(())
    }
}
