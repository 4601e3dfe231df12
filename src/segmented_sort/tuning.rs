//! The segmented sort's tuning table: rows per device class, the reason of each in
//! `docs/tuning/segmented_sort.md` under its anchor.

use super::SegmentedSortTuning;
use crate::core::tuning::{first_row, DeviceClass, Devices, TuningRow};

/// The default kernel tuning ([`SegmentedSortTuning::for_device`]).
pub(super) const DEFAULT_TUNING: &[TuningRow<(), SegmentedSortTuning>] = &[
    TuningRow {
        devices: Devices::Nvidia,
        when: (),
        choice: SegmentedSortTuning {
            workgroup_size: 256,
            items_per_invocation: 4,
            merge_workgroups: 1024,
        },
        why: "tiles of 1024: the fastest of four shapes on every segment layout but tiny ones",
        anchor: "default-tuning",
    },
    TuningRow {
        devices: Devices::OtherGpu,
        when: (),
        choice: SegmentedSortTuning {
            workgroup_size: 256,
            items_per_invocation: 4,
            merge_workgroups: 1024,
        },
        why: "NVIDIA's choice",
        anchor: "default-tuning",
    },
    TuningRow {
        devices: Devices::Cpu,
        when: (),
        choice: SegmentedSortTuning {
            workgroup_size: 64,
            items_per_invocation: 8,
            merge_workgroups: 256,
        },
        why: "small tiles on CPU drivers: every merge round runs in the tests",
        anchor: "default-tuning",
    },
];

/// The device's default tuning ([`DEFAULT_TUNING`]).
pub(super) fn default_tuning(class: DeviceClass) -> SegmentedSortTuning {
    first_row(DEFAULT_TUNING, class, |_| true)
        .expect("a default segmented sort tuning for every device class")
        .choice
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::tuning::assert_anchors;

    #[test]
    fn every_row_has_its_reason() {
        assert_anchors(
            DEFAULT_TUNING,
            include_str!("../../docs/tuning/segmented_sort.md"),
        );
        for class in [DeviceClass::Nvidia, DeviceClass::OtherGpu, DeviceClass::Cpu] {
            let t = default_tuning(class);
            assert!(t.workgroup_size.is_power_of_two() && t.tile() <= 1 << 15);
        }
    }
}
