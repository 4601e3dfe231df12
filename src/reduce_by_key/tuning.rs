//! The reduce-by-key's tuning tables: rows per device class, the reason of each in
//! `docs/tuning/reduce_by_key.md` under its anchor.

use super::ReduceByKeyTuning;
use crate::core::tuning::{first_row, DeviceClass, Devices, TuningRow};

const fn tile(workgroup_size: u32, items_per_invocation: u32) -> ReduceByKeyTuning {
    ReduceByKeyTuning {
        workgroup_size,
        items_per_invocation,
        lookback_spins: 0,
    }
}

/// The default kernel tuning ([`ReduceByKeyTuning::for_device`]): the first row for plans of at
/// most `when` elements (the plan's `max_count`).
pub(super) const DEFAULT_TUNING: &[TuningRow<u64, ReduceByKeyTuning>] = &[
    TuningRow {
        devices: Devices::Gpu,
        when: 1 << 18,
        choice: tile(256, 8),
        why: "at 2^16 and 2^18 (32 and 128 tiles) 1.10-1.31x as fast as 256 x 16, the fastest of six shapes",
        anchor: "small-tiles",
    },
    TuningRow {
        devices: Devices::Gpu,
        when: 1 << 20,
        choice: tile(512, 8),
        why: "at 2^20 (256 tiles) 1.04-1.07x as fast as 256 x 16; at 2^22 256 x 16 is 5-8% ahead",
        anchor: "small-tiles",
    },
    TuningRow {
        devices: Devices::Nvidia,
        when: u64::MAX,
        choice: tile(256, 16),
        why: "the fastest tile for every run length measured",
        anchor: "default-tuning",
    },
    TuningRow {
        devices: Devices::OtherGpu,
        when: u64::MAX,
        choice: tile(256, 16),
        why: "NVIDIA's choice, not measured",
        anchor: "default-tuning",
    },
    TuningRow {
        devices: Devices::Cpu,
        when: u64::MAX,
        choice: tile(128, 4),
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

/// The device's default tuning for a plan of `max_count` elements ([`DEFAULT_TUNING`]).
pub(super) fn default_tuning(class: DeviceClass, max_count: u64) -> ReduceByKeyTuning {
    first_row(DEFAULT_TUNING, class, |&at_most| max_count <= at_most)
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
            for log2 in [0, 16, 18, 19, 24, 32] {
                let t = default_tuning(class, 1 << log2);
                assert!(t.workgroup_size.is_power_of_two() && (1..=16).contains(&t.items_per_invocation));
            }
            assert!(default_spins(class) > 0);
        }
    }

    #[test]
    fn small_plans_take_small_tiles() {
        let tile = |class, n| {
            let t = default_tuning(class, n);
            (t.workgroup_size, t.items_per_invocation)
        };
        assert_eq!(tile(DeviceClass::Nvidia, 1 << 18), (256, 8));
        assert_eq!(tile(DeviceClass::Nvidia, (1 << 18) + 1), (512, 8));
        assert_eq!(tile(DeviceClass::Nvidia, 1 << 20), (512, 8));
        assert_eq!(tile(DeviceClass::Nvidia, (1 << 20) + 1), (256, 16));
        assert_eq!(tile(DeviceClass::OtherGpu, 1 << 16), (256, 8));
        assert_eq!(tile(DeviceClass::Cpu, 1 << 16), (128, 4));
    }
}
