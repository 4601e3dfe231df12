//! The select's tuning tables: rows per device class, the reason of each in
//! `docs/tuning/select.md` under its anchor.

use super::SelectTuning;
use crate::core::tuning::{first_row, DeviceClass, Devices, TuningRow};

/// The default kernel tuning ([`SelectTuning::for_device`]).
pub(super) const DEFAULT_TUNING: &[TuningRow<(), SelectTuning>] = &[
    TuningRow {
        devices: Devices::Nvidia,
        when: (),
        choice: SelectTuning {
            workgroup_size: 1024,
            items_per_invocation: 16,
            lookback_spins: 256,
        },
        why: "the fastest of six measured tile shapes for flagged selects",
        anchor: "default-tuning",
    },
    TuningRow {
        devices: Devices::OtherGpu,
        when: (),
        choice: SelectTuning {
            workgroup_size: 1024,
            items_per_invocation: 16,
            lookback_spins: 256,
        },
        why: "NVIDIA's choice, not measured",
        anchor: "default-tuning",
    },
    TuningRow {
        devices: Devices::Cpu,
        when: (),
        choice: SelectTuning {
            workgroup_size: 256,
            items_per_invocation: 4,
            lookback_spins: 32,
        },
        why: "smaller tiles on CPU drivers, a silent predecessor falls back sooner",
        anchor: "default-tuning",
    },
];

/// The device's default tuning ([`DEFAULT_TUNING`]).
pub(super) fn default_tuning(class: DeviceClass) -> SelectTuning {
    first_row(DEFAULT_TUNING, class, |_| true)
        .expect("a default select tuning for every device class")
        .choice
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::tuning::assert_anchors;

    #[test]
    fn every_row_has_its_reason() {
        assert_anchors(DEFAULT_TUNING, include_str!("../../docs/tuning/select.md"));
        for class in [DeviceClass::Nvidia, DeviceClass::OtherGpu, DeviceClass::Cpu] {
            let t = default_tuning(class);
            assert!(t.workgroup_size.is_power_of_two() && (1..=16).contains(&t.items_per_invocation));
        }
    }
}
