//! The blocking host call: upload, record (through the record layer), submit, wait (bounded),
//! download.

use super::{ReduceArgs, ReduceDesc};
use crate::core::buffer::ElementCount;
use crate::core::runner::read_back;
use crate::core::types::ReduceOp;
use crate::error::{Error, Result};
use crate::sort::SortKey;
use crate::Context;

impl Context {
    /// `op` over `input` on the GPU (see the [`reduce`](crate::reduce) module for the rules:
    /// wrapping integer sums, float sums in any order, the sort's order for minima and maxima,
    /// the identity for no elements). Counts over
    /// [`REDUCE_MAX_COUNT`](super::REDUCE_MAX_COUNT) are refused before any work.
    pub fn reduce<K: SortKey>(&self, input: &[K], op: ReduceOp) -> Result<K> {
        let n = input.len() as u64;
        let plan = self.reduce_plan(&ReduceDesc::new(K::KEY_TYPE, op, n))?;
        if n == 0 {
            return Ok(super::reference::identity(op));
        }
        let kb = K::KEY_TYPE.bytes();
        let upload = self.staging_from(input)?;
        let device_in = self.device_buffer(n * kb, "vkalgo reduce input")?;
        let scratch = self.device_buffer(plan.memory_requirements().scratch.size, "vkalgo reduce scratch")?;
        let mut result = self.readback_buffer(16)?;
        let args = ReduceArgs {
            input: device_in.sub_range(0, n * kb),
            result: result.sub_range(0, kb),
            scratch: scratch.range(),
            count: ElementCount::Direct(n),
        };
        let submitted = self.submit_and_wait(|cmd| unsafe {
            self.record_copy(cmd, &upload, &device_in, n * kb);
            self.transfer_to_compute(cmd);
            plan.record(cmd, &args)?;
            self.compute_to_host(cmd);
            Ok(())
        });
        if let Err(Error::Timeout(m)) = submitted {
            // The GPU may still use these buffers: never free them under it.
            for b in [upload, device_in, scratch, result] {
                b.leak();
            }
            return Err(Error::Timeout(m));
        }
        submitted?;
        let mut out = [K::zeroed()];
        read_back(&mut result, &mut out)?;
        Ok(out[0])
    }
}
