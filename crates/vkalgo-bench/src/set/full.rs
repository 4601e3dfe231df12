//! The set benchmark's `full` case: operations of two sets whose every chunk is a bitmap.

use super::*;
use vkalgo_bench::harness::median;

impl Set<'_> {
    /// The `full` case: operations of two sets whose every chunk is a bitmap.
    pub(super) fn full(&self) -> Result<()> {
        let (ctx, status, pass_times) = (self.b.ctx, &self.status, self.pass_times);
        let case = "full";
        // The whole universe on GPUs; 64 chunks on CPU drivers (a check of the benchmark itself).
        let chunks = if ctx.is_cpu_device() { 64 } else { ALL_CHUNKS };
        let wa = half_full_bitmap(chunks, 11);
        let wb = half_full_bitmap(chunks, 12);
        let a = GpuSet::deserialize(ctx, &serialize_bitmaps(&wa))?;
        let b = GpuSet::deserialize(ctx, &serialize_bitmaps(&wb))?;
        let card = |w: &[u64]| w.iter().map(|x| x.count_ones() as u64).sum::<u64>();
        let (na, nb) = (card(&wa), card(&wb));
        assert_eq!(a.cardinality()?, na, "full: a's cardinality");
        let n = (na + nb) as usize;
        // Read a and b, write the result: three universes of bitmaps.
        let bitmap_bytes = 3 * (chunks * CHUNK_WORDS * 8) as u64;
        let share = |ms: f64| 100.0 * bitmap_bytes as f64 / (ms * 1e-3) / 1e9 / self.b.yard.gbs;
        println!("{case}: a holds {na} values, b {nb}; each of their {chunks} chunks a bitmap");
        let mut d = GpuSet::new(ctx)?;
        for op in SetOp::ALL {
            let want = reference::op_bits(&wa, &wb, op);
            let want_bytes = serialize_bitmaps(&want);
            d.assign(SetOperand::Set(&a), SetOperand::Set(&b), op)?;
            for (reserved, suffix) in [(false, ""), (true, "_reserved")] {
                d.reserve_for_op(SetOperand::Set(&a), SetOperand::Set(&b), op)?;
                let times = self.time(pass_times && op == SetOp::And, |cmd| unsafe {
                    self.record_set_op(&mut d, cmd, &a, &b, op, reserved)
                })?;
                let name = format!("{op:?}{suffix}").to_lowercase();
                assert_status_ok(ctx, status, 0, &name)?;
                assert!(d.serialize()? == want_bytes, "{name}: wrong result");
                let ms = median(times);
                result_line(
                    &name,
                    case,
                    n,
                    ms,
                    &format!("{:.1}%copyBW(bitmap bytes)", share(ms)),
                );
            }
            let times = self.time(pass_times && op == SetOp::And, |cmd| unsafe {
                self.record_card(cmd, &a, &b, op)
            })?;
            assert_card_status(ctx, status, card(&want), &format!("{op:?}"))?;
            assert_eq!(GpuSet::op_cardinality(&a, &b, op)?, card(&want));
            let ms = median(times);
            // A cardinality reads two of the three universes.
            let extra = format!("{:.1}%copyBW(bitmap bytes)", share(ms) * 2.0 / 3.0);
            result_line(&format!("{op:?}_cardinality").to_lowercase(), case, n, ms, &extra);
        }
        Ok(())
    }
}
