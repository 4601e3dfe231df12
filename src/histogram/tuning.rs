//! The histogram's tuning table: rows per device class, the reason of each in
//! `docs/tuning/histogram.md` under its anchor.

use super::HistogramTuning;
use crate::core::tuning::{first_row, DeviceClass, Devices, TuningRow};

/// The most workgroups a histogram's grid may have.
pub(super) const MAX_WORKGROUPS: u32 = 65535;

/// The default kernel tuning ([`HistogramTuning::for_device`], its shared buckets capped by the
/// device's shared memory).
pub(super) const DEFAULT_TUNING: &[TuningRow<(), HistogramTuning>] = &[
    TuningRow {
        devices: Devices::Nvidia,
        when: (),
        choice: HistogramTuning {
            workgroup_size: 1024,
            items_per_invocation: 8,
            max_workgroups: 1024,
            shared_buckets: 8192,
        },
        why: "within 10% of the sweep's best but at 2^16 of 65536 bins; private counts up to 32 KiB",
        anchor: "default-tuning",
    },
    TuningRow {
        devices: Devices::OtherGpu,
        when: (),
        choice: HistogramTuning {
            workgroup_size: 256,
            items_per_invocation: 8,
            max_workgroups: 1024,
            shared_buckets: 4096,
        },
        why: "the first NVIDIA grid; private counts in the 16 KiB every GPU has",
        anchor: "default-tuning",
    },
    TuningRow {
        devices: Devices::Cpu,
        when: (),
        choice: HistogramTuning {
            workgroup_size: 256,
            items_per_invocation: 4,
            max_workgroups: 64,
            shared_buckets: 4096,
        },
        why: "few cores: few workgroups, few flushes",
        anchor: "default-tuning",
    },
];

/// The device's default tuning ([`DEFAULT_TUNING`]) with its shared buckets capped at
/// `max_shared_memory` bytes.
pub(super) fn default_tuning(class: DeviceClass, max_shared_memory: u32) -> HistogramTuning {
    let mut tuning = first_row(DEFAULT_TUNING, class, |_| true)
        .expect("a default histogram tuning for every device class")
        .choice;
    let fits = (max_shared_memory / 4) / 256 * 256;
    tuning.shared_buckets = tuning.shared_buckets.min(fits);
    tuning
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::tuning::assert_anchors;

    #[test]
    fn every_row_has_its_reason() {
        assert_anchors(DEFAULT_TUNING, include_str!("../../docs/tuning/histogram.md"));
        for class in [DeviceClass::Nvidia, DeviceClass::OtherGpu, DeviceClass::Cpu] {
            let t = default_tuning(class, 16384);
            assert!(t.max_workgroups <= MAX_WORKGROUPS && t.workgroup_size.is_power_of_two());
            assert!(t.shared_buckets * 4 <= 16384);
        }
    }
}
