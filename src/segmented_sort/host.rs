//! The blocking host calls: check the offsets (O(segments)), upload, record (through the
//! record layer), submit, wait (bounded), download.

use super::{
    SegmentedSortArgs, SegmentedSortDesc, SegmentedSortTuning, SEGMENTED_SORT_MAX_COUNT,
    SEGMENTED_SORT_MAX_SEGMENTS,
};
use crate::core::buffer::{ElementCount, GpuBuffer};
use crate::core::runner::read_back;
use crate::error::{Error, Result};
use crate::sort::{SortKey, SortValue, ValueType};
use crate::Context;

/// Options of the host segmented sorts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SegmentedSortOptions {
    /// Largest key first (still stable).
    pub descending: bool,
    /// First order-preserving key bit sorted on.
    pub begin_bit: u32,
    /// One past the last bit sorted on (0: the key's full width).
    pub end_bit: u32,
    /// Kernel tuning (`None`: [`SegmentedSortTuning::for_device`]).
    pub tuning: Option<SegmentedSortTuning>,
}

impl Context {
    /// Sorts each segment `[offsets[s], offsets[s + 1])` of `keys` ascending on the GPU,
    /// stable (floats in IEEE-754 totalOrder). `offsets` are non-decreasing from 0 to
    /// `keys.len()` (empty segments allowed); others are [`Error::InvalidArgument`] and leave
    /// `keys` as they were.
    pub fn segmented_sort<K: SortKey>(&self, keys: &mut [K], offsets: &[u64]) -> Result<()> {
        self.segmented_sort_keys_with(keys, offsets, &SegmentedSortOptions::default())
    }

    /// Like [`Context::segmented_sort`], moving `values` (same length) with their keys.
    pub fn segmented_sort_pairs<K: SortKey, V: SortValue>(
        &self,
        keys: &mut [K],
        values: &mut [V],
        offsets: &[u64],
    ) -> Result<()> {
        self.segmented_sort_pairs_with(keys, values, offsets, &SegmentedSortOptions::default())
    }

    /// Like [`Context::segmented_sort`] with options (direction, bit range, tuning).
    pub fn segmented_sort_keys_with<K: SortKey>(
        &self,
        keys: &mut [K],
        offsets: &[u64],
        options: &SegmentedSortOptions,
    ) -> Result<()> {
        let desc = host_desc(K::KEY_TYPE, ValueType::None, keys.len(), offsets, options);
        self.segmented_sort_host_bytes(&desc, bytemuck::cast_slice_mut(keys), None, offsets)
    }

    /// Like [`Context::segmented_sort_pairs`] with options (direction, bit range, tuning).
    pub fn segmented_sort_pairs_with<K: SortKey, V: SortValue>(
        &self,
        keys: &mut [K],
        values: &mut [V],
        offsets: &[u64],
        options: &SegmentedSortOptions,
    ) -> Result<()> {
        if keys.len() != values.len() {
            return Err(Error::invalid(format!(
                "segmented sort: {} keys but {} values",
                keys.len(),
                values.len()
            )));
        }
        let desc = host_desc(K::KEY_TYPE, V::VALUE_TYPE, keys.len(), offsets, options);
        self.segmented_sort_host_bytes(
            &desc,
            bytemuck::cast_slice_mut(keys),
            Some(bytemuck::cast_slice_mut(values)),
            offsets,
        )
    }

    /// The one host segmented sort behind the typed calls and the C ABI, on the keys' and
    /// values' bytes: `desc.max_count` is the element count, `offsets` its `segments + 1`
    /// segment starts (`desc.max_segments` is ignored). Checks everything before the GPU runs;
    /// on error the arrays are unchanged.
    pub fn segmented_sort_host_bytes(
        &self,
        desc: &SegmentedSortDesc,
        keys: &mut [u8],
        values: Option<&mut [u8]>,
        offsets: &[u64],
    ) -> Result<()> {
        let n = desc.max_count;
        if n > SEGMENTED_SORT_MAX_COUNT {
            return Err(Error::invalid(format!(
                "segmented sort: count {n} exceeds {SEGMENTED_SORT_MAX_COUNT}"
            )));
        }
        let segments = offsets.len().saturating_sub(1) as u64;
        if segments > SEGMENTED_SORT_MAX_SEGMENTS {
            return Err(Error::invalid(format!(
                "segmented sort: {segments} segments exceed {SEGMENTED_SORT_MAX_SEGMENTS}"
            )));
        }
        if !super::reference::offsets_valid(offsets, n) {
            return Err(Error::invalid(
                "segmented sort: offsets must be non-decreasing from 0 to the element count",
            ));
        }
        let (kb, vb) = (desc.key_type.bytes(), desc.value_type.bytes());
        if values.is_some() != (desc.value_type != ValueType::None) {
            return Err(Error::invalid(
                "segmented sort: values must be given exactly when a value type is",
            ));
        }
        if keys.len() as u64 != n * kb || values.as_ref().is_some_and(|v| v.len() as u64 != n * vb) {
            return Err(Error::invalid(
                "segmented sort: the keys and values must hold the element count",
            ));
        }
        // The longest segment, so that a plan of small segments records no merge rounds.
        let longest = offsets.windows(2).map(|w| w[1] - w[0]).max().unwrap_or(0);
        let desc = SegmentedSortDesc {
            max_segments: segments,
            max_segment_len: Some(longest),
            ..*desc
        };
        let plan = self.segmented_sort_plan(&desc)?; // checks the bit range even for count 0
        if n <= 1 {
            return Ok(());
        }
        let offsets32: Vec<u32> = offsets.iter().map(|&o| o as u32).collect();
        let mut bufs: Vec<GpuBuffer> = Vec::new();
        let mut add = |b: GpuBuffer| {
            bufs.push(b);
            bufs.len() - 1
        };
        let up_keys = add(self.staging_from(keys)?);
        let dev_keys = add(self.device_buffer(n * kb, "vkalgo segmented sort keys")?);
        let down_keys = add(self.readback_buffer(n * kb)?);
        let value_bufs = match &values {
            Some(v) => Some((
                add(self.staging_from(v)?),
                add(self.device_buffer(n * vb, "vkalgo segmented sort values")?),
                add(self.readback_buffer(n * vb)?),
            )),
            None => None,
        };
        let offsets_bytes: &[u8] = bytemuck::cast_slice(&offsets32);
        let up_offsets = add(self.staging_from(offsets_bytes)?);
        let dev_offsets =
            add(self.device_buffer(offsets_bytes.len() as u64, "vkalgo segmented sort offsets")?);
        let scratch = add(self.device_buffer(
            plan.memory_requirements().scratch.size,
            "vkalgo segmented sort scratch",
        )?);
        let b = &bufs;
        let offsets_len = offsets_bytes.len() as u64;
        let args = SegmentedSortArgs {
            keys: b[dev_keys].sub_range(0, n * kb),
            values: value_bufs.map(|v| b[v.1].sub_range(0, n * vb)),
            offsets: b[dev_offsets].sub_range(0, offsets_len),
            scratch: b[scratch].range(),
            count: ElementCount::Direct(n),
            segments: ElementCount::Direct(segments),
        };
        let submitted = self.submit_and_wait(|cmd| unsafe {
            self.record_copy(cmd, &b[up_keys], &b[dev_keys], n * kb);
            if let Some(v) = value_bufs {
                self.record_copy(cmd, &b[v.0], &b[v.1], n * vb);
            }
            self.record_copy(cmd, &b[up_offsets], &b[dev_offsets], offsets_len);
            self.transfer_to_compute(cmd);
            plan.record(cmd, &args)?;
            self.compute_to_transfer(cmd);
            self.record_copy(cmd, &b[dev_keys], &b[down_keys], n * kb);
            if let Some(v) = value_bufs {
                self.record_copy(cmd, &b[v.1], &b[v.2], n * vb);
            }
            self.transfer_to_host(cmd);
            Ok(())
        });
        if let Err(Error::Timeout(message)) = submitted {
            // The GPU may still use these buffers: never free them under it.
            bufs.into_iter().for_each(GpuBuffer::leak);
            return Err(Error::Timeout(message));
        }
        submitted?;
        read_back(&mut bufs[down_keys], keys)?;
        if let (Some(v), Some(out)) = (value_bufs, values) {
            read_back(&mut bufs[v.2], out)?;
        }
        Ok(())
    }
}

fn host_desc(
    key_type: crate::sort::KeyType,
    value_type: ValueType,
    n: usize,
    offsets: &[u64],
    options: &SegmentedSortOptions,
) -> SegmentedSortDesc {
    SegmentedSortDesc {
        key_type,
        value_type,
        max_count: n as u64,
        max_segments: offsets.len().saturating_sub(1) as u64,
        begin_bit: options.begin_bit,
        end_bit: options.end_bit,
        descending: options.descending,
        max_segment_len: None,
        tuning: options.tuning,
    }
}
