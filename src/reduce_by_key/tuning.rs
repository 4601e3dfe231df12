//! The reduce-by-key's tuning tables: rows per device class, the reason of each in
//! `docs/tuning/reduce_by_key.md` under its anchor.

use super::ReduceByKeyTuning;
use crate::core::tuning::{first_row, DeviceClass, Devices, TuningRow};

/// The default kernel tuning ([`ReduceByKeyTuning::for_device`]).
pub(super) const DEFAULT_TUNING: &[TuningRow<(), ReduceByKeyTuning>] = &[
    TuningRow {
        devices: Devices::Nvidia,
        when: (),
        choice: ReduceByKeyTuning {
            workgroup_size: 256,
            items_per_invocation: 16,
            lookback_spins: 0,
        },
        why: "the fastest tile for every run length measured",
        anchor: "default-tuning",
    },
    TuningRow {
        devices: Devices::OtherGpu,
        when: (),
        choice: ReduceByKeyTuning {
            workgroup_size: 256,
            items_per_invocation: 16,
            lookback_spins: 0,
        },
        why: "NVIDIA's choice, not measured",
        anchor: "default-tuning",
    },
    TuningRow {
        devices: Devices::Cpu,
        when: (),
        choice: ReduceByKeyTuning {
            workgroup_size: 128,
            items_per_invocation: 4,
            lookback_spins: 0,
        },
        why: "short per-invocation loops on CPU drivers",
        anchor: "default-tuning",
    },
];

/// Steps a look-back waits on a silent predecessor before it computes its pair itself.
pub(super) const LOOKBACK_SPINS: &[TuningRow<(), u32>] = &[
    TuningRow {
        devices: Devices::Nvidia,
        when: (),
        choice: 256,
        why: "the scan's choice, not measured",
        anchor: "lookback-spins",
    },
    TuningRow {
        devices: Devices::OtherGpu,
        when: (),
        choice: 256,
        why: "the scan's choice, not measured",
        anchor: "lookback-spins",
    },
    TuningRow {
        devices: Devices::Cpu,
        when: (),
        choice: 32,
        why: "a silent predecessor is likely not running: fall back sooner",
        anchor: "lookback-spins",
    },
];

/// The device's default tuning ([`DEFAULT_TUNING`]).
pub(super) fn default_tuning(class: DeviceClass) -> ReduceByKeyTuning {
    first_row(DEFAULT_TUNING, class, |_| true)
        .expect("a default reduce-by-key tuning for every device class")
        .choice
}

/// The device's default look-back spins ([`LOOKBACK_SPINS`]).
pub(super) fn default_spins(class: DeviceClass) -> u32 {
    first_row(LOOKBACK_SPINS, class, |_| true)
        .expect("look-back spins for every device class")
        .choice
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::tuning::assert_anchors;

    #[test]
    fn every_row_has_its_reason() {
        let doc = include_str!("../../docs/tuning/reduce_by_key.md");
        assert_anchors(DEFAULT_TUNING, doc);
        assert_anchors(LOOKBACK_SPINS, doc);
        for class in [DeviceClass::Nvidia, DeviceClass::OtherGpu, DeviceClass::Cpu] {
            let t = default_tuning(class);
            assert!(t.workgroup_size.is_power_of_two() && (1..=16).contains(&t.items_per_invocation));
            assert!(default_spins(class) > 0);
        }
    }
}
