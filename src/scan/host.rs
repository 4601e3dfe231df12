//! Host convenience scans: upload, record, submit, wait (bounded), download.

use super::{ScanArgs, ScanDesc, ScanOp, ScanPath};
use crate::core::buffer::ElementCount;
use crate::core::runner::read_back;
use crate::error::{Error, Result};
use crate::Context;

impl Context {
    /// Scans `input` into `output` (same length) on the GPU with the profile's path. Counts
    /// over [`super::SCAN_MAX_COUNT`] are refused ([`Error::InvalidArgument`]) before any work.
    pub fn scan_u32(&self, input: &[u32], output: &mut [u32], op: ScanOp) -> Result<()> {
        self.scan_u32_with_path(input, output, op, ScanPath::Auto)
    }

    /// Scans `data` in place on the GPU.
    pub fn scan_u32_in_place(&self, data: &mut [u32], op: ScanOp) -> Result<()> {
        // The count is checked before the copy.
        self.scan_plan(&ScanDesc::new(op, data.len() as u64))?;
        let input = data.to_vec();
        self.scan_u32(&input, data, op)
    }

    /// Like [`Context::scan_u32`] with an explicit path.
    pub fn scan_u32_with_path(
        &self,
        input: &[u32],
        output: &mut [u32],
        op: ScanOp,
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
        let plan = self.scan_plan(&ScanDesc {
            op,
            path,
            max_count: n,
            tuning: None,
            keep_scratch_zeroed: false,
        })?;
        if n == 0 {
            return Ok(());
        }
        let bytes = n * 4;
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
