//! The select's tuning tables: rows per device class, the reason of each in
//! `docs/tuning/select.md` under its anchor.

use super::{SelectMode, SelectPath, SelectTuning};
use crate::core::tuning::{first_row, DeviceClass, Devices, TuningRow};

/// The selects a path row is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Modes {
    /// Flagged and predicate selects whose plan holds at least this many elements.
    FlaggedOrIfFrom(u64),
    /// Unique selects whose plan holds at least this many elements.
    UniqueFrom(u64),
    /// Every select.
    Any,
}

impl Modes {
    fn holds(self, mode: &SelectMode, max_count: u64) -> bool {
        match self {
            Modes::FlaggedOrIfFrom(least) => !matches!(mode, SelectMode::Unique) && max_count >= least,
            Modes::UniqueFrom(least) => matches!(mode, SelectMode::Unique) && max_count >= least,
            Modes::Any => true,
        }
    }
}

/// The path [`SelectPath::Auto`] takes on a device whose profile allows look-back (CPU drivers
/// never do: they take the count-scan path).
pub(super) const AUTO_PATH: &[TuningRow<Modes, SelectPath>] = &[
    TuningRow {
        devices: Devices::Nvidia,
        when: Modes::FlaggedOrIfFrom(1 << 22),
        choice: SelectPath::CountScan,
        why: "no look-back wait: from 2^23 flagged selects 1.1-1.35x and predicate ones 1.1-1.4x \
              as fast; below 2^22 its extra dispatches cost more (look-back 1.1-1.2x as fast)",
        anchor: "auto-path",
    },
    TuningRow {
        devices: Devices::Nvidia,
        when: Modes::UniqueFrom(1 << 24),
        choice: SelectPath::CountScan,
        why: "even with the look-back at 2^24, 1.11-1.15x as fast at 2^28",
        anchor: "auto-path",
    },
    TuningRow {
        devices: Devices::Any,
        when: Modes::Any,
        choice: SelectPath::Lookback,
        why: "below the sizes above the count-scan path's extra dispatches cost more",
        anchor: "auto-path",
    },
];

/// The path [`SelectPath::Auto`] takes for `mode` and a plan of `max_count` elements where
/// look-back is allowed ([`AUTO_PATH`]).
pub(super) fn auto_path(class: DeviceClass, mode: &SelectMode, max_count: u64) -> SelectPath {
    first_row(AUTO_PATH, class, |m| m.holds(mode, max_count))
        .expect("an automatic select path for every device class and mode")
        .choice
}

/// Which plans a tile row is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct TileWhen {
    /// The path (`None`: either).
    pub path: Option<SelectPath>,
    /// Plans of at most this many elements (the plan's `max_count`).
    pub max_count: u64,
}

impl TileWhen {
    const fn path(path: Option<SelectPath>) -> Self {
        TileWhen {
            path,
            max_count: u64::MAX,
        }
    }

    const fn lookback_up_to(max_count: u64) -> Self {
        TileWhen {
            path: Some(SelectPath::Lookback),
            max_count,
        }
    }

    fn holds(&self, path: SelectPath, max_count: u64) -> bool {
        self.path.map_or(true, |p| p == path) && max_count <= self.max_count
    }
}

const fn tile(workgroup_size: u32, items_per_invocation: u32, lookback_spins: u32) -> SelectTuning {
    SelectTuning {
        workgroup_size,
        items_per_invocation,
        lookback_spins,
    }
}

/// The default kernel tuning ([`SelectTuning::for_device`]), per path and plan size.
pub(super) const DEFAULT_TUNING: &[TuningRow<TileWhen, SelectTuning>] = &[
    TuningRow {
        devices: Devices::Nvidia,
        when: TileWhen::path(Some(SelectPath::CountScan)),
        choice: tile(512, 16, 256),
        why: "the fastest of four tile shapes on the count-scan path, 2-15% faster than 1024 x 16",
        anchor: "count-scan-tuning",
    },
    TuningRow {
        devices: Devices::Gpu,
        when: TileWhen::lookback_up_to(1 << 16),
        choice: tile(256, 8, 256),
        why: "32 tiles at 2^16: 1.20-1.47x as fast as 1024 x 16, within 3% of the best of six shapes",
        anchor: "small-tiles",
    },
    TuningRow {
        devices: Devices::Gpu,
        when: TileWhen::lookback_up_to(1 << 18),
        choice: tile(512, 8, 256),
        why: "64 tiles at 2^18: the fastest of six shapes in every mode, 1.18-1.34x as fast as 1024 x 16",
        anchor: "small-tiles",
    },
    TuningRow {
        devices: Devices::Gpu,
        when: TileWhen::lookback_up_to(1 << 20),
        choice: tile(1024, 8, 256),
        why: "128 tiles at 2^20: level with 1024 x 16 or up to 10% faster (pairs)",
        anchor: "small-tiles",
    },
    TuningRow {
        devices: Devices::Nvidia,
        when: TileWhen::path(None),
        choice: tile(1024, 16, 256),
        why: "the fastest of six measured tile shapes for flagged selects on the look-back path",
        anchor: "default-tuning",
    },
    TuningRow {
        devices: Devices::OtherGpu,
        when: TileWhen::path(None),
        choice: tile(1024, 16, 256),
        why: "NVIDIA's look-back choice, not measured",
        anchor: "default-tuning",
    },
    TuningRow {
        devices: Devices::Cpu,
        when: TileWhen::path(None),
        choice: tile(256, 4, 32),
        why: "smaller tiles on CPU drivers, a silent predecessor falls back sooner",
        anchor: "default-tuning",
    },
];

/// The device's default tuning for `path` (look-back or count-scan) and a plan of `max_count`
/// elements ([`DEFAULT_TUNING`]).
pub(super) fn default_tuning(class: DeviceClass, path: SelectPath, max_count: u64) -> SelectTuning {
    first_row(DEFAULT_TUNING, class, |when| when.holds(path, max_count))
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
        assert_anchors(AUTO_PATH, include_str!("../../docs/tuning/select.md"));
        for class in [DeviceClass::Nvidia, DeviceClass::OtherGpu, DeviceClass::Cpu] {
            for path in [SelectPath::Lookback, SelectPath::CountScan] {
                for log2 in [0, 16, 17, 18, 20, 21, 24, 32] {
                    let t = default_tuning(class, path, 1 << log2);
                    assert!(t.workgroup_size.is_power_of_two() && (1..=16).contains(&t.items_per_invocation));
                }
            }
        }
    }

    #[test]
    fn look_back_tiles_grow_with_the_plan() {
        let tile = |class, path, n| {
            let t = default_tuning(class, path, n);
            (t.workgroup_size, t.items_per_invocation)
        };
        let lookback = SelectPath::Lookback;
        assert_eq!(tile(DeviceClass::Nvidia, lookback, 1 << 16), (256, 8));
        assert_eq!(tile(DeviceClass::Nvidia, lookback, (1 << 16) + 1), (512, 8));
        assert_eq!(tile(DeviceClass::Nvidia, lookback, 1 << 20), (1024, 8));
        assert_eq!(tile(DeviceClass::Nvidia, lookback, (1 << 20) + 1), (1024, 16));
        assert_eq!(
            tile(DeviceClass::Nvidia, SelectPath::CountScan, 1 << 16),
            (512, 16)
        );
        assert_eq!(tile(DeviceClass::OtherGpu, lookback, 1 << 18), (512, 8));
        assert_eq!(tile(DeviceClass::Cpu, lookback, 1 << 16), (256, 4));
    }

    #[test]
    fn automatic_path_by_mode_and_size() {
        let predicate = SelectMode::If { glsl: String::new() };
        for mode in [&SelectMode::Flagged, &predicate] {
            assert_eq!(
                auto_path(DeviceClass::Nvidia, mode, 1 << 22),
                SelectPath::CountScan
            );
            assert_eq!(
                auto_path(DeviceClass::Nvidia, mode, (1 << 22) - 1),
                SelectPath::Lookback
            );
            assert_eq!(
                auto_path(DeviceClass::OtherGpu, mode, 1 << 28),
                SelectPath::Lookback
            );
        }
        assert_eq!(
            auto_path(DeviceClass::Nvidia, &SelectMode::Unique, 1 << 24),
            SelectPath::CountScan
        );
        assert_eq!(
            auto_path(DeviceClass::Nvidia, &SelectMode::Unique, (1 << 24) - 1),
            SelectPath::Lookback
        );
        assert_eq!(
            auto_path(DeviceClass::OtherGpu, &SelectMode::Unique, 1 << 28),
            SelectPath::Lookback
        );
    }
}
