//! Host convenience merges, set operations and merge sorts: upload, record, submit, wait
//! (bounded), download. The merge and set-operation calls check on the GPU that each input is
//! sorted, in the same submission, and refuse unsorted input with
//! [`Error::InvalidArgument`] without writing anything.

use super::{
    MergeArgs, MergeDesc, MergePath, MergeSortArgs, MergeSortDesc, MergeTuning, SegmentedMergeArgs,
    SetOpArgs, SetOpDesc, SetOpPath,
};
use crate::core::buffer::{ElementCount, GpuBuffer, MemoryLocation};
use crate::core::runner::read_back;
use crate::error::{Error, Result};
use crate::sort::{KeyType, SortKey, SortResult, SortValue, ValueType};
use crate::{Context, SetOp};
use ash::vk;

/// Options of the host merges and merge sorts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MergeOptions {
    /// Inputs and output in descending order (still stable).
    pub descending: bool,
    /// Which merge kernels (merges only).
    pub path: MergePath,
    /// Kernel tuning (`None`: the plan's default, [`MergeTuning::for_merge`] for merges).
    pub tuning: Option<MergeTuning>,
}

/// Buffers of one host call, leaked together if the GPU may still use them.
struct Buffers(Vec<GpuBuffer>);

impl Buffers {
    fn add(&mut self, buffer: GpuBuffer) -> usize {
        self.0.push(buffer);
        self.0.len() - 1
    }

    /// Passes on the result of a submission; after a timeout leaks the buffers (the GPU may
    /// still use them).
    fn settle(&mut self, submitted: Result<()>) -> Result<()> {
        match submitted {
            Err(Error::Timeout(m)) => {
                std::mem::take(&mut self.0).into_iter().for_each(GpuBuffer::leak);
                Err(Error::Timeout(m))
            }
            other => other,
        }
    }
}

/// Makes compute-shader writes visible to transfers and to the host.
unsafe fn compute_to_readback(ctx: &Context, cmd: vk::CommandBuffer) {
    ctx.memory_barrier(
        cmd,
        vk::PipelineStageFlags::COMPUTE_SHADER,
        vk::AccessFlags::SHADER_WRITE,
        vk::PipelineStageFlags::TRANSFER | vk::PipelineStageFlags::HOST,
        vk::AccessFlags::TRANSFER_READ | vk::AccessFlags::HOST_READ,
    );
}

fn check_flags(flags: &mut GpuBuffer, what: &str, descending: bool) -> Result<()> {
    let mut words = [0u32; 2];
    read_back(flags, &mut words)?;
    let order = if descending { "descending" } else { "ascending" };
    for (word, run) in words.iter().zip(["a", "b"]) {
        if *word != 0 {
            return Err(Error::invalid(format!(
                "{what}: input {run} is not sorted in {order} order"
            )));
        }
    }
    Ok(())
}

impl Context {
    /// Merges the ascending runs `a` and `b` into `out` (`a.len() + b.len()` elements) on the
    /// GPU; stable (equal keys: a's first). Unsorted input is refused with
    /// [`Error::InvalidArgument`] and `out` is left unchanged.
    pub fn merge<K: SortKey>(&self, a: &[K], b: &[K], out: &mut [K]) -> Result<()> {
        self.merge_with(a, b, out, &MergeOptions::default())
    }

    /// Like [`Context::merge`] with options (order, path, tuning).
    pub fn merge_with<K: SortKey>(
        &self,
        a: &[K],
        b: &[K],
        out: &mut [K],
        options: &MergeOptions,
    ) -> Result<()> {
        let desc = host_desc(K::KEY_TYPE, ValueType::None, a.len(), b.len(), options);
        if out.len() != a.len() + b.len() {
            return Err(Error::invalid(format!(
                "merge: out holds {} elements, a and b {}",
                out.len(),
                a.len() + b.len()
            )));
        }
        self.merge_host_bytes(
            &desc,
            [bytemuck::cast_slice(a), bytemuck::cast_slice(b)],
            None,
            bytemuck::cast_slice_mut(out),
            None,
        )
    }

    /// Merges the ascending runs of pairs (`a_keys`, `a_values`) and (`b_keys`, `b_values`)
    /// into `out_keys` and `out_values`; stable. Unsorted keys are refused, nothing written.
    pub fn merge_pairs<K: SortKey, V: SortValue>(
        &self,
        a_keys: &[K],
        a_values: &[V],
        b_keys: &[K],
        b_values: &[V],
        out_keys: &mut [K],
        out_values: &mut [V],
    ) -> Result<()> {
        self.merge_pairs_with(
            a_keys,
            a_values,
            b_keys,
            b_values,
            out_keys,
            out_values,
            &MergeOptions::default(),
        )
    }

    /// Like [`Context::merge_pairs`] with options (order, path, tuning).
    #[allow(clippy::too_many_arguments)]
    pub fn merge_pairs_with<K: SortKey, V: SortValue>(
        &self,
        a_keys: &[K],
        a_values: &[V],
        b_keys: &[K],
        b_values: &[V],
        out_keys: &mut [K],
        out_values: &mut [V],
        options: &MergeOptions,
    ) -> Result<()> {
        let total = a_keys.len() + b_keys.len();
        if a_values.len() != a_keys.len()
            || b_values.len() != b_keys.len()
            || out_keys.len() != total
            || out_values.len() != total
        {
            return Err(Error::invalid(
                "merge: every run needs as many values as keys, and the output a.len() + b.len()",
            ));
        }
        let desc = host_desc(K::KEY_TYPE, V::VALUE_TYPE, a_keys.len(), b_keys.len(), options);
        self.merge_host_bytes(
            &desc,
            [bytemuck::cast_slice(a_keys), bytemuck::cast_slice(b_keys)],
            Some([bytemuck::cast_slice(a_values), bytemuck::cast_slice(b_values)]),
            bytemuck::cast_slice_mut(out_keys),
            Some(bytemuck::cast_slice_mut(out_values)),
        )
    }

    /// The one host merge behind the typed calls and the C ABI: `keys` of A and B, `values`
    /// of A and B when the description has a value type; the outputs hold both. On error the
    /// outputs are unchanged.
    pub fn merge_host_bytes(
        &self,
        desc: &MergeDesc,
        keys: [&[u8]; 2],
        values: Option<[&[u8]; 2]>,
        out_keys: &mut [u8],
        out_values: Option<&mut [u8]>,
    ) -> Result<()> {
        let plan = self.merge_plan(desc)?;
        let (kb, vb) = (desc.key_type.bytes(), desc.value_type.bytes());
        let (m, n) = (desc.max_a, desc.max_b);
        let has_values = desc.value_type != ValueType::None;
        if values.is_some() != has_values || out_values.is_some() != has_values {
            return Err(Error::invalid(
                "merge: values must be given exactly when a value type is",
            ));
        }
        let sizes_ok = keys[0].len() as u64 == m * kb
            && keys[1].len() as u64 == n * kb
            && out_keys.len() as u64 == (m + n) * kb
            && values.map_or(true, |v| {
                v[0].len() as u64 == m * vb && v[1].len() as u64 == n * vb
            })
            && out_values
                .as_ref()
                .map_or(true, |v| v.len() as u64 == (m + n) * vb);
        if !sizes_ok {
            return Err(Error::Internal(
                "merge: host slices do not match the description".into(),
            ));
        }
        if m + n == 0 {
            return Ok(());
        }
        let mut bufs = Buffers(Vec::new());
        let up_a = bufs.add(self.staging_from(keys[0])?);
        let up_b = bufs.add(self.staging_from(keys[1])?);
        let dev_a = bufs.add(self.device_buffer(m * kb, "vkalgo merge a_keys")?);
        let dev_b = bufs.add(self.device_buffer(n * kb, "vkalgo merge b_keys")?);
        let dev_out = bufs.add(self.device_buffer((m + n) * kb, "vkalgo merge out_keys")?);
        let down_keys = bufs.add(self.readback_buffer((m + n) * kb)?);
        let value_bufs = match values {
            Some(v) => Some((
                bufs.add(self.staging_from(v[0])?),
                bufs.add(self.staging_from(v[1])?),
                bufs.add(self.device_buffer(m * vb, "vkalgo merge a_values")?),
                bufs.add(self.device_buffer(n * vb, "vkalgo merge b_values")?),
                bufs.add(self.device_buffer((m + n) * vb, "vkalgo merge out_values")?),
                bufs.add(self.readback_buffer((m + n) * vb)?),
            )),
            None => None,
        };
        let scratch =
            bufs.add(self.device_buffer(plan.memory_requirements().scratch.size, "vkalgo merge scratch")?);
        let flags = bufs.add(GpuBuffer::new(
            self,
            16,
            MemoryLocation::GpuToCpu,
            "vkalgo merge flags",
        )?);
        let b = &bufs.0;
        let args = MergeArgs {
            a_keys: b[dev_a].sub_range(0, m * kb),
            a_values: value_bufs.map(|v| b[v.2].sub_range(0, m * vb)),
            b_keys: b[dev_b].sub_range(0, n * kb),
            b_values: value_bufs.map(|v| b[v.3].sub_range(0, n * vb)),
            out_keys: b[dev_out].sub_range(0, (m + n) * kb),
            out_values: value_bufs.map(|v| b[v.4].sub_range(0, (m + n) * vb)),
            scratch: b[scratch].range(),
            a_count: ElementCount::Direct(m),
            b_count: ElementCount::Direct(n),
        };
        let flags_range = b[flags].sub_range(0, 8);
        let recorded = |cmd: vk::CommandBuffer| unsafe {
            self.record_copy(cmd, &b[up_a], &b[dev_a], m * kb);
            self.record_copy(cmd, &b[up_b], &b[dev_b], n * kb);
            if let Some(v) = value_bufs {
                self.record_copy(cmd, &b[v.0], &b[v.2], m * vb);
                self.record_copy(cmd, &b[v.1], &b[v.3], n * vb);
            }
            self.device.cmd_fill_buffer(cmd, b[flags].buffer(), 0, 16, 0);
            self.transfer_to_compute(cmd);
            plan.record_check(self, cmd, &args, &flags_range)?;
            plan.record(cmd, &args)?;
            compute_to_readback(self, cmd);
            self.record_copy(cmd, &b[dev_out], &b[down_keys], (m + n) * kb);
            if let Some(v) = value_bufs {
                self.record_copy(cmd, &b[v.4], &b[v.5], (m + n) * vb);
            }
            self.transfer_to_host(cmd);
            Ok(())
        };
        let submitted = self.submit_and_wait(recorded);
        bufs.settle(submitted)?;
        check_flags(&mut bufs.0[flags], "merge", desc.descending)?;
        read_back(&mut bufs.0[down_keys], out_keys)?;
        if let (Some(v), Some(out)) = (value_bufs, out_values) {
            read_back(&mut bufs.0[v.5], out)?;
        }
        Ok(())
    }

    /// The set operation `op` on the ascending runs `a` and `b` (std::set_* multiset
    /// semantics, see [`SetOp`]), sorted ascending. Unsorted input is refused with
    /// [`Error::InvalidArgument`].
    pub fn sorted_set_op<K: SortKey>(&self, op: SetOp, a: &[K], b: &[K]) -> Result<Vec<K>> {
        let bytes = self.sorted_set_op_bytes(
            K::KEY_TYPE,
            op,
            bytemuck::cast_slice(a),
            bytemuck::cast_slice(b),
            None,
        )?;
        let mut out = vec![K::zeroed(); bytes.len() / std::mem::size_of::<K>()];
        bytemuck::cast_slice_mut::<K, u8>(&mut out).copy_from_slice(&bytes);
        Ok(out)
    }

    /// The host set operation behind [`Context::sorted_set_op`] and the C ABI, on the keys'
    /// bytes.
    pub fn sorted_set_op_bytes(
        &self,
        key_type: KeyType,
        op: SetOp,
        a: &[u8],
        b: &[u8],
        tuning: Option<MergeTuning>,
    ) -> Result<Vec<u8>> {
        let kb = key_type.bytes();
        if a.len() as u64 % kb != 0 || b.len() as u64 % kb != 0 {
            return Err(Error::Internal("set operation: slices of partial keys".into()));
        }
        let (m, n) = (a.len() as u64 / kb, b.len() as u64 / kb);
        let plan = self.set_op_plan(&SetOpDesc {
            key_type,
            op,
            max_a: m,
            max_b: n,
            path: SetOpPath::Auto,
            tuning,
        })?;
        let mut bufs = Buffers(Vec::new());
        let up_a = bufs.add(self.staging_from(a)?);
        let up_b = bufs.add(self.staging_from(b)?);
        let dev_a = bufs.add(self.device_buffer(m * kb, "vkalgo set a")?);
        let dev_b = bufs.add(self.device_buffer(n * kb, "vkalgo set b")?);
        let dev_out = bufs.add(self.device_buffer((m + n) * kb, "vkalgo set out")?);
        let scratch =
            bufs.add(self.device_buffer(plan.memory_requirements().scratch.size, "vkalgo set scratch")?);
        let small = bufs.add(GpuBuffer::new(
            self,
            32,
            MemoryLocation::GpuToCpu,
            "vkalgo set flags",
        )?);
        let bb = &bufs.0;
        let args = SetOpArgs {
            a: bb[dev_a].sub_range(0, m * kb),
            b: bb[dev_b].sub_range(0, n * kb),
            out: bb[dev_out].sub_range(0, (m + n) * kb),
            out_count: bb[small].sub_range(16, 4),
            scratch: bb[scratch].range(),
            a_count: ElementCount::Direct(m),
            b_count: ElementCount::Direct(n),
        };
        let flags_range = bb[small].sub_range(0, 8);
        let recorded = |cmd: vk::CommandBuffer| unsafe {
            self.record_copy(cmd, &bb[up_a], &bb[dev_a], m * kb);
            self.record_copy(cmd, &bb[up_b], &bb[dev_b], n * kb);
            self.device.cmd_fill_buffer(cmd, bb[small].buffer(), 0, 32, 0);
            self.transfer_to_compute(cmd);
            plan.record_check(self, cmd, &args, &flags_range)?;
            plan.record(cmd, &args)?;
            compute_to_readback(self, cmd);
            Ok(())
        };
        let submitted = self.submit_and_wait(recorded);
        bufs.settle(submitted)?;
        check_flags(&mut bufs.0[small], "set operation", false)?;
        let mut words = [0u32; 5];
        read_back(&mut bufs.0[small], &mut words)?;
        let count = words[4] as u64;
        if count > m + n {
            return Err(Error::Internal(format!(
                "set operation: output count {count} exceeds the inputs"
            )));
        }
        let mut out = vec![0u8; (count * kb) as usize];
        if count > 0 {
            let down = bufs.add(self.readback_buffer(count * kb)?);
            let bb = &bufs.0;
            let copied = self.submit_and_wait(|cmd| unsafe {
                self.record_copy(cmd, &bb[dev_out], &bb[down], count * kb);
                self.transfer_to_host(cmd);
                Ok(())
            });
            bufs.settle(copied)?;
            read_back(&mut bufs.0[down], &mut out)?;
        }
        Ok(out)
    }

    /// Sorts `keys` ascending on the GPU with the stable merge sort (the radix sort,
    /// [`Context::sort`], is faster for large arrays).
    pub fn merge_sort<K: SortKey>(&self, keys: &mut [K]) -> Result<()> {
        self.merge_sort_with(keys, &MergeOptions::default())
    }

    /// Like [`Context::merge_sort`] with options (order, tuning).
    pub fn merge_sort_with<K: SortKey>(&self, keys: &mut [K], options: &MergeOptions) -> Result<()> {
        let desc = sort_desc(K::KEY_TYPE, ValueType::None, keys.len(), 0, options);
        self.merge_sort_host_bytes(&desc, bytemuck::cast_slice_mut(keys), None, None)
    }

    /// Sorts `keys` with their `values` (same length) by the stable merge sort.
    pub fn merge_sort_pairs_with<K: SortKey, V: SortValue>(
        &self,
        keys: &mut [K],
        values: &mut [V],
        options: &MergeOptions,
    ) -> Result<()> {
        if keys.len() != values.len() {
            return Err(Error::invalid("merge sort: as many values as keys are needed"));
        }
        let desc = sort_desc(K::KEY_TYPE, V::VALUE_TYPE, keys.len(), 0, options);
        self.merge_sort_host_bytes(
            &desc,
            bytemuck::cast_slice_mut(keys),
            Some(bytemuck::cast_slice_mut(values)),
            None,
        )
    }

    /// Merges the sorted runs of `keys` (run r is `offsets[r]..offsets[r + 1]`; `offsets`
    /// starts at 0 and ends at `keys.len()`) into one sorted array, stable, with their
    /// `values` when given (same length as `keys`). The runs are checked on the host: an
    /// unsorted run or bad offsets are refused with [`Error::InvalidArgument`], nothing written.
    pub fn segmented_merge<K: SortKey, V: SortValue>(
        &self,
        keys: &mut [K],
        values: Option<&mut [V]>,
        offsets: &[u32],
        options: &MergeOptions,
    ) -> Result<()> {
        if values.as_ref().is_some_and(|v| v.len() != keys.len()) {
            return Err(Error::invalid(
                "segmented merge: as many values as keys are needed",
            ));
        }
        let value_type = if values.is_some() {
            V::VALUE_TYPE
        } else {
            ValueType::None
        };
        let desc = sort_desc(K::KEY_TYPE, value_type, keys.len(), 0, options);
        self.segmented_merge_host_bytes(
            &desc,
            bytemuck::cast_slice_mut(keys),
            values.map(|v| bytemuck::cast_slice_mut(v)),
            offsets,
        )
    }

    /// The segmented merge behind [`Context::segmented_merge`] and the C ABI, on the keys' and
    /// values' bytes (`desc` gives
    /// the types, the order and `max_count` = the element count): the offsets and every run's
    /// order are checked on the host first; on error nothing
    /// is written.
    pub fn segmented_merge_host_bytes(
        &self,
        desc: &MergeSortDesc,
        keys: &mut [u8],
        values: Option<&mut [u8]>,
        offsets: &[u32],
    ) -> Result<()> {
        let n = desc.max_count;
        let kb = desc.key_type.bytes() as usize;
        if keys.len() as u64 != n * kb as u64 {
            return Err(Error::invalid("segmented merge: keys and count differ"));
        }
        let bad_offsets = offsets.is_empty()
            || offsets[0] != 0
            || *offsets.last().unwrap() as u64 != n
            || offsets.windows(2).any(|w| w[0] > w[1]);
        if bad_offsets {
            return Err(Error::invalid(
                "segmented merge: offsets must be non-decreasing from 0 to the key count",
            ));
        }
        fn runs_sorted<K: SortKey>(keys: &[u8], offsets: &[u32], descending: bool) -> Option<(u32, u32)> {
            let size = std::mem::size_of::<K>();
            offsets.windows(2).find_map(|w| {
                let run: Vec<K> = keys[w[0] as usize * size..w[1] as usize * size]
                    .chunks_exact(size)
                    .map(bytemuck::pod_read_unaligned)
                    .collect();
                (!super::reference::is_sorted(&run, descending)).then_some((w[0], w[1]))
            })
        }
        let unsorted = match desc.key_type {
            KeyType::U32 => runs_sorted::<u32>(keys, offsets, desc.descending),
            KeyType::I32 => runs_sorted::<i32>(keys, offsets, desc.descending),
            KeyType::F32 => runs_sorted::<f32>(keys, offsets, desc.descending),
            KeyType::U64 => runs_sorted::<u64>(keys, offsets, desc.descending),
            KeyType::I64 => runs_sorted::<i64>(keys, offsets, desc.descending),
            KeyType::F64 => runs_sorted::<f64>(keys, offsets, desc.descending),
        };
        if let Some((start, end)) = unsorted {
            return Err(Error::invalid(format!(
                "segmented merge: run {start}..{end} is not sorted"
            )));
        }
        let desc = MergeSortDesc {
            max_runs: offsets.len() as u64 - 1,
            ..*desc
        };
        self.merge_sort_host_bytes(&desc, keys, values, Some(offsets))
    }

    /// The host merge sort (offsets `None`) or segmented merge, on the keys' and values' bytes
    /// (`desc.max_count` = the element count; the C ABI and the typed calls meet here).
    pub fn merge_sort_host_bytes(
        &self,
        desc: &MergeSortDesc,
        keys: &mut [u8],
        values: Option<&mut [u8]>,
        offsets: Option<&[u32]>,
    ) -> Result<()> {
        let plan = self.merge_sort_plan(desc)?;
        let n = desc.max_count;
        let (kb, vb) = (desc.key_type.bytes(), desc.value_type.bytes());
        if values.is_some() != (desc.value_type != ValueType::None) {
            return Err(Error::invalid(
                "merge sort: values must be given exactly when a value type is",
            ));
        }
        if keys.len() as u64 != n * kb || values.as_ref().is_some_and(|v| v.len() as u64 != n * vb) {
            return Err(Error::invalid(
                "merge sort: the keys and values must hold max_count elements",
            ));
        }
        if n <= 1 || offsets.is_some_and(|o| o.len() <= 2) {
            return Ok(());
        }
        let mut bufs = Buffers(Vec::new());
        let up_keys = bufs.add(self.staging_from(keys)?);
        let dev_keys = bufs.add(self.device_buffer(n * kb, "vkalgo merge sort keys")?);
        let dev_alt = bufs.add(self.device_buffer(n * kb, "vkalgo merge sort keys_alt")?);
        let down_keys = bufs.add(self.readback_buffer(n * kb)?);
        let value_bufs = match &values {
            Some(v) => Some((
                bufs.add(self.staging_from(v)?),
                bufs.add(self.device_buffer(n * vb, "vkalgo merge sort values")?),
                bufs.add(self.device_buffer(n * vb, "vkalgo merge sort values_alt")?),
                bufs.add(self.readback_buffer(n * vb)?),
            )),
            None => None,
        };
        let offset_bufs = match offsets {
            Some(o) => Some((
                bufs.add(self.staging_from(o)?),
                bufs.add(self.device_buffer(o.len() as u64 * 4, "vkalgo merge offsets")?),
            )),
            None => None,
        };
        let scratch = bufs.add(self.device_buffer(
            plan.memory_requirements().scratch.size,
            "vkalgo merge sort scratch",
        )?);
        let b = &bufs.0;
        let args = MergeSortArgs {
            keys: b[dev_keys].sub_range(0, n * kb),
            values: value_bufs.map(|v| b[v.1].sub_range(0, n * vb)),
            keys_alt: b[dev_alt].sub_range(0, n * kb),
            values_alt: value_bufs.map(|v| b[v.2].sub_range(0, n * vb)),
            scratch: b[scratch].range(),
            count: n,
        };
        let recorded = |cmd: vk::CommandBuffer| unsafe {
            self.record_copy(cmd, &b[up_keys], &b[dev_keys], n * kb);
            if let Some(v) = value_bufs {
                self.record_copy(cmd, &b[v.0], &b[v.1], n * vb);
            }
            if let (Some((up, dev)), Some(o)) = (offset_bufs, offsets) {
                self.record_copy(cmd, &b[up], &b[dev], o.len() as u64 * 4);
            }
            self.transfer_to_compute(cmd);
            let location = match (offset_bufs, offsets) {
                (Some((_, dev)), Some(o)) => plan.record_segmented(
                    cmd,
                    &SegmentedMergeArgs {
                        array: args,
                        offsets: b[dev].sub_range(0, o.len() as u64 * 4),
                        runs: o.len() as u64 - 1,
                    },
                )?,
                _ => plan.record(cmd, &args)?,
            };
            self.compute_to_transfer(cmd);
            let alt = location == SortResult::Alternate;
            let src_keys = if alt { dev_alt } else { dev_keys };
            self.record_copy(cmd, &b[src_keys], &b[down_keys], n * kb);
            if let Some(v) = value_bufs {
                self.record_copy(cmd, &b[if alt { v.2 } else { v.1 }], &b[v.3], n * vb);
            }
            self.transfer_to_host(cmd);
            Ok(())
        };
        let submitted = self.submit_and_wait(recorded);
        bufs.settle(submitted)?;
        read_back(&mut bufs.0[down_keys], keys)?;
        if let (Some(v), Some(out)) = (value_bufs, values) {
            read_back(&mut bufs.0[v.3], out)?;
        }
        Ok(())
    }
}

fn host_desc(
    key_type: KeyType,
    value_type: ValueType,
    m: usize,
    n: usize,
    options: &MergeOptions,
) -> MergeDesc {
    MergeDesc {
        key_type,
        value_type,
        descending: options.descending,
        max_a: m as u64,
        max_b: n as u64,
        path: options.path,
        tuning: options.tuning,
    }
}

fn sort_desc(
    key_type: KeyType,
    value_type: ValueType,
    n: usize,
    runs: u64,
    options: &MergeOptions,
) -> MergeSortDesc {
    MergeSortDesc {
        key_type,
        value_type,
        descending: options.descending,
        max_count: n as u64,
        max_runs: runs,
        tuning: options.tuning,
    }
}
