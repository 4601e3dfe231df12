//! Host convenience scans: upload, record, submit, wait (bounded), download.

use super::{ScanArgs, ScanDesc, ScanOp, ScanPath};
use crate::core::buffer::ElementCount;
use crate::core::runner::read_back;
use crate::core::types::ReduceOp;
use crate::error::{Error, Result};
use crate::sort::SortKey;
use crate::Context;

impl Context {
    /// Sums `input` into `output` (same length) on the GPU with the profile's path. Counts
    /// over [`super::SCAN_MAX_COUNT`] are refused ([`Error::InvalidArgument`]) before any work.
    pub fn scan_u32(&self, input: &[u32], output: &mut [u32], op: ScanOp) -> Result<()> {
        self.scan(input, output, op, ReduceOp::Sum)
    }

    /// Sums `data` in place on the GPU.
    pub fn scan_u32_in_place(&self, data: &mut [u32], op: ScanOp) -> Result<()> {
        self.scan_in_place(data, op, ReduceOp::Sum)
    }

    /// Like [`Context::scan_u32`] with an explicit path.
    pub fn scan_u32_with_path(
        &self,
        input: &[u32],
        output: &mut [u32],
        op: ScanOp,
        path: ScanPath,
    ) -> Result<()> {
        self.scan_with_path(input, output, op, ReduceOp::Sum, path)
    }

    /// Scans `input` into `output` (same length) on the GPU with `combine` (see the
    /// [`scan`](crate::scan) module for the rules: wrapping integer sums, float sums in any
    /// order, the sort's order for minima and maxima, the identity first in exclusive scans),
    /// on the profile's path. Counts over [`super::SCAN_MAX_COUNT`] are refused
    /// ([`Error::InvalidArgument`]) before any work.
    ///
    /// ```
    /// use vkalgo::{Context, ReduceOp, ScanOp};
    /// let ctx = Context::new()?;
    /// let mut out = [0i32; 4];
    /// ctx.scan(&[3, -7, 5, -9], &mut out, ScanOp::Inclusive, ReduceOp::Min)?;
    /// assert_eq!(out, [3, -7, -7, -9]);
    /// # Ok::<(), vkalgo::Error>(())
    /// ```
    pub fn scan<K: SortKey>(
        &self,
        input: &[K],
        output: &mut [K],
        op: ScanOp,
        combine: ReduceOp,
    ) -> Result<()> {
        self.scan_with_path(input, output, op, combine, ScanPath::Auto)
    }

    /// Scans `data` in place on the GPU (as [`Context::scan`]).
    pub fn scan_in_place<K: SortKey>(&self, data: &mut [K], op: ScanOp, combine: ReduceOp) -> Result<()> {
        // The count and the device's support are checked before the copy.
        self.scan_plan(&ScanDesc::typed(K::KEY_TYPE, combine, op, data.len() as u64))?;
        let input = data.to_vec();
        self.scan(&input, data, op, combine)
    }

    /// Like [`Context::scan`] with an explicit path.
    pub fn scan_with_path<K: SortKey>(
        &self,
        input: &[K],
        output: &mut [K],
        op: ScanOp,
        combine: ReduceOp,
        path: ScanPath,
    ) -> Result<()> {
        if input.len() != output.len() {
            return Err(Error::invalid(format!(
                "scan: input has {} elements but output has {}",
                input.len(),
                output.len()
            )));
        }
        let n = input.len() as u64;
        let plan = self.scan_plan(&ScanDesc::typed(K::KEY_TYPE, combine, op, n).with_path(path))?;
        if n == 0 {
            return Ok(());
        }
        let bytes = n * K::KEY_TYPE.bytes();
        let upload = self.staging_from(input)?;
        let device_in = self.device_buffer(bytes, "vkalgo scan input")?;
        let device_out = self.device_buffer(bytes, "vkalgo scan output")?;
        let scratch = self.device_buffer(plan.memory_requirements().scratch.size, "vkalgo scan scratch")?;
        let mut download = self.readback_buffer(bytes)?;
        let args = ScanArgs {
            input: device_in.sub_range(0, bytes),
            output: device_out.sub_range(0, bytes),
            scratch: scratch.range(),
            count: ElementCount::Direct(n),
        };
        let submitted = self.submit_and_wait(|cmd| unsafe {
            self.record_copy(cmd, &upload, &device_in, bytes);
            self.transfer_to_compute(cmd);
            plan.record(cmd, &args)?;
            self.compute_to_transfer(cmd);
            self.record_copy(cmd, &device_out, &download, bytes);
            self.transfer_to_host(cmd);
            Ok(())
        });
        if let Err(Error::Timeout(m)) = submitted {
            // The GPU may still use these buffers: never free them under it.
            for b in [upload, device_in, device_out, scratch, download] {
                b.leak();
            }
            return Err(Error::Timeout(m));
        }
        submitted?;
        read_back(&mut download, output)
    }
}
