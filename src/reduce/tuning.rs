//! The reduce's tuning table: rows per device class, the reason of each in
//! `docs/tuning/reduce.md` under its anchor.

use super::ReduceTuning;
use crate::core::tuning::{first_row, DeviceClass, Devices, TuningRow};

/// The most workgroups a reduce's grid may have (its scratch holds a partial for each).
pub(super) const MAX_WORKGROUPS: u32 = 4096;

/// The default kernel tuning ([`ReduceTuning::for_device`]).
pub(super) const DEFAULT_TUNING: &[TuningRow<(), ReduceTuning>] = &[
    TuningRow {
        devices: Devices::Nvidia,
        when: (),
        choice: ReduceTuning {
            workgroup_size: 256,
            items_per_invocation: 8,
            max_workgroups: 1024,
        },
        why: "eight loads in flight per invocation, a few waves of workgroups",
        anchor: "default-tuning",
    },
    TuningRow {
        devices: Devices::OtherGpu,
        when: (),
        choice: ReduceTuning {
            workgroup_size: 256,
            items_per_invocation: 8,
            max_workgroups: 1024,
        },
        why: "NVIDIA's choice",
        anchor: "default-tuning",
    },
    TuningRow {
        devices: Devices::Cpu,
        when: (),
        choice: ReduceTuning {
            workgroup_size: 256,
            items_per_invocation: 4,
            max_workgroups: 64,
        },
        why: "few cores: few partials",
        anchor: "default-tuning",
    },
];

/// The device's default tuning ([`DEFAULT_TUNING`]).
pub(super) fn default_tuning(class: DeviceClass) -> ReduceTuning {
    first_row(DEFAULT_TUNING, class, |_| true)
        .expect("a default reduce tuning for every device class")
        .choice
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::tuning::assert_anchors;

    #[test]
    fn every_row_has_its_reason() {
        assert_anchors(DEFAULT_TUNING, include_str!("../../docs/tuning/reduce.md"));
        for class in [DeviceClass::Nvidia, DeviceClass::OtherGpu, DeviceClass::Cpu] {
            let t = default_tuning(class);
            assert!(t.max_workgroups <= MAX_WORKGROUPS && t.workgroup_size.is_power_of_two());
        }
    }
}
