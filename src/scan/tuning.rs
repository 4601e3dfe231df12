//! The scan's tuning tables: rows per device class, the evidence of each in
//! `docs/tuning/scan.md` under its anchor.

use super::ScanTuning;
use crate::core::tuning::{first_row, rows_for, DeviceClass, Devices, TuningRow};

/// A workgroup shape: invocations and uvec4 vectors per invocation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Shape {
    pub workgroup_size: u32,
    pub vecs_per_thread: u32,
}

/// The default kernel tuning ([`ScanTuning::for_device`]).
pub(super) const DEFAULT_SHAPE: &[TuningRow<(), Shape>] = &[
    TuningRow {
        devices: Devices::Nvidia,
        when: (),
        choice: Shape {
            workgroup_size: 256,
            vecs_per_thread: 8,
        },
        why: "8 vectors per invocation beat 4 at large counts",
        anchor: "default-tile",
    },
    TuningRow {
        devices: Devices::OtherGpu,
        when: (),
        choice: Shape {
            workgroup_size: 256,
            vecs_per_thread: 8,
        },
        why: "NVIDIA's choice, not measured",
        anchor: "default-tile",
    },
    TuningRow {
        devices: Devices::Cpu,
        when: (),
        choice: Shape {
            workgroup_size: 256,
            vecs_per_thread: 4,
        },
        why: "smaller tiles on CPU drivers",
        anchor: "default-tile",
    },
];

/// The default tile of scans of 64-bit elements on GPUs, at every count above
/// [`WIDE_LOOKBACK_TIERS`]' first row (CPU drivers keep [`DEFAULT_SHAPE`]).
pub(super) const WIDE_SHAPE: &[TuningRow<(), Shape>] = &[
    TuningRow {
        devices: Devices::Nvidia,
        when: (),
        choice: Shape {
            workgroup_size: 256,
            vecs_per_thread: 4,
        },
        why: "16 elements (32 registers) an invocation: the fastest 64-bit tile from 2^20",
        anchor: "wide-tiles",
    },
    TuningRow {
        devices: Devices::OtherGpu,
        when: (),
        choice: Shape {
            workgroup_size: 256,
            vecs_per_thread: 4,
        },
        why: "NVIDIA's choice, not measured",
        anchor: "wide-tiles",
    },
];

/// The look-back path's tiles by count for 64-bit elements on GPUs: small tiles for small
/// counts, then [`WIDE_SHAPE`] (no larger tiers: they hold more registers than it).
pub(super) const WIDE_LOOKBACK_TIERS: &[TuningRow<u64, Tier>] = &[TuningRow {
    devices: Devices::Gpu,
    when: 1 << 18,
    choice: SMALL_TIER,
    why: "small tiles: more workgroups share a small scan",
    anchor: "wide-tiles",
}];

/// Spins of a look-back wait before the waiter computes the predecessor's aggregate itself,
/// when the tuning asks for the device's default (`lookback_spins` 0).
pub(super) const LOOKBACK_SPINS: &[TuningRow<(), u32>] = &[
    TuningRow {
        devices: Devices::Nvidia,
        when: (),
        choice: 256,
        why: "time for a running predecessor to publish",
        anchor: "lookback-spins",
    },
    TuningRow {
        devices: Devices::OtherGpu,
        when: (),
        choice: 256,
        why: "NVIDIA's choice, not measured",
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

/// Up to which count [`super::ScanPath::Auto`] scans with one workgroup.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum SmallLimit {
    /// Never.
    Never,
    /// Up to the largest tile of the small geometries ([`SMALL_TILES`]), or `otherwise` for a
    /// plan with the caller's tuning (which has none).
    LargestSmallTile { otherwise: u64 },
}

/// The small path's limit under [`super::ScanPath::Auto`].
pub(super) const SMALL_LIMIT: &[TuningRow<(), SmallLimit>] = &[
    TuningRow {
        devices: Devices::Nvidia,
        when: (),
        choice: SmallLimit::LargestSmallTile { otherwise: 1 << 13 },
        why: "one workgroup beats look-back while one tile holds the count",
        anchor: "small-limit",
    },
    TuningRow {
        devices: Devices::OtherGpu,
        when: (),
        choice: SmallLimit::LargestSmallTile { otherwise: 1 << 13 },
        why: "NVIDIA's choice, not measured",
        anchor: "small-limit",
    },
    TuningRow {
        devices: Devices::Cpu,
        when: (),
        choice: SmallLimit::Never,
        why: "every workgroup is one thread there",
        anchor: "small-limit",
    },
];

/// A workgroup size of a tile shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Width {
    /// The widest power of two the device allows, at most this.
    AtMost(u32),
    /// The widest power of two the device allows, at most 1024.
    Widest,
}

/// The small path's geometries of plans with the default tuning, by growing tile; a shape is
/// taken only where its tile is larger than the one before.
pub(super) const SMALL_TILES: &[TuningRow<(), (Width, u32)>] = &[
    TuningRow {
        devices: Devices::Any,
        when: (),
        choice: (Width::AtMost(256), 1),
        why: "one workgroup scans fastest when its tile just holds the count",
        anchor: "small-tiles",
    },
    TuningRow {
        devices: Devices::Any,
        when: (),
        choice: (Width::Widest, 1),
        why: "one workgroup scans fastest when its tile just holds the count",
        anchor: "small-tiles",
    },
    TuningRow {
        devices: Devices::Any,
        when: (),
        choice: (Width::Widest, 2),
        why: "one workgroup scans fastest when its tile just holds the count",
        anchor: "small-tiles",
    },
    TuningRow {
        devices: Devices::Any,
        when: (),
        choice: (Width::Widest, 4),
        why: "one workgroup scans fastest when its tile just holds the count",
        anchor: "small-tiles",
    },
];

/// A tier of the look-back path's tiles by count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Tier {
    /// Invocations per workgroup (`None`: the plan's).
    pub workgroup_size: Option<u32>,
    /// Vectors per invocation (`None`: the plan's).
    pub vecs_per_thread: Option<u32>,
    /// The tier is taken where the device allows workgroups of this many invocations.
    pub needs_workgroup: u32,
}

/// The tier of counts up to 2^18: the plan's workgroup with 2 vectors an invocation.
const SMALL_TIER: Tier = Tier {
    workgroup_size: None,
    vecs_per_thread: Some(2),
    needs_workgroup: 0,
};

/// The look-back path's tiles of plans with the default tuning: a count takes the first row
/// (the device's, whose workgroup it allows) whose `when` (the largest count) reaches it, and
/// the plan's tuning above every row.
pub(super) const LOOKBACK_TIERS: &[TuningRow<u64, Tier>] = &[
    TuningRow {
        devices: Devices::Any,
        when: 1 << 18,
        choice: SMALL_TIER,
        why: "small tiles: more workgroups share a small scan",
        anchor: "lookback-small-tiles",
    },
    TuningRow {
        devices: Devices::Gpu,
        when: 1 << 20,
        choice: Tier {
            workgroup_size: Some(512),
            vecs_per_thread: Some(2),
            needs_workgroup: 512,
        },
        why: "fastest tile at these counts (workgroup-wide window)",
        anchor: "lookback-mid-tiles",
    },
    TuningRow {
        devices: Devices::Gpu,
        when: 1 << 21,
        choice: Tier {
            workgroup_size: Some(512),
            vecs_per_thread: Some(4),
            needs_workgroup: 512,
        },
        why: "fastest tile at these counts (workgroup-wide window)",
        anchor: "lookback-mid-tiles",
    },
    TuningRow {
        devices: Devices::Gpu,
        when: 1 << 25,
        choice: Tier {
            workgroup_size: None,
            vecs_per_thread: None,
            needs_workgroup: 1024,
        },
        why: "the default tile up to where large tiles win",
        anchor: "lookback-large-tiles",
    },
    TuningRow {
        devices: Devices::Gpu,
        when: u64::MAX,
        choice: Tier {
            workgroup_size: Some(1024),
            vecs_per_thread: Some(8),
            needs_workgroup: 1024,
        },
        why: "large tiles above 2^25: fewer tiles to look back over",
        anchor: "lookback-large-tiles",
    },
];

/// The tuning of plans without the caller's: [`DEFAULT_SHAPE`], spins left to the device.
pub(super) fn default_tuning(class: DeviceClass) -> ScanTuning {
    default_tuning_for(class, 32)
}

/// The tuning of plans of `key_bits`-bit elements without the caller's: [`WIDE_SHAPE`] for
/// 64-bit elements on GPUs, else [`DEFAULT_SHAPE`].
pub(super) fn default_tuning_for(class: DeviceClass, key_bits: u32) -> ScanTuning {
    let wide = if key_bits == 64 {
        first_row(WIDE_SHAPE, class, |_| true)
    } else {
        None
    };
    let shape = wide
        .or_else(|| first_row(DEFAULT_SHAPE, class, |_| true))
        .expect("a default scan tile for every device class")
        .choice;
    ScanTuning {
        workgroup_size: shape.workgroup_size,
        vecs_per_thread: shape.vecs_per_thread,
        lookback_spins: 0,
    }
}

/// The device's default look-back spins ([`LOOKBACK_SPINS`]).
pub(super) fn default_spins(class: DeviceClass) -> u32 {
    first_row(LOOKBACK_SPINS, class, |_| true)
        .expect("look-back spins for every device class")
        .choice
}

/// The small path's limit ([`SMALL_LIMIT`]) given the plan's small geometries.
pub(super) fn small_limit(class: DeviceClass, geometries: &[ScanTuning]) -> u64 {
    let row = first_row(SMALL_LIMIT, class, |_| true).expect("a small limit for every device class");
    match row.choice {
        SmallLimit::Never => 0,
        SmallLimit::LargestSmallTile { otherwise } => {
            geometries.last().map_or(otherwise, |g| g.tile_elements())
        }
    }
}

/// The small path's geometries ([`SMALL_TILES`]) on a device allowing workgroups of
/// `max_invocations`.
pub(super) fn small_geometries(class: DeviceClass, max_invocations: u32) -> Vec<ScanTuning> {
    let limit = max_invocations.clamp(32, 1024);
    let widest = 1 << (31 - limit.leading_zeros()); // largest power of two <= limit
    let mut list: Vec<ScanTuning> = Vec::new();
    for row in rows_for(SMALL_TILES, class, |_| true) {
        let (width, vecs_per_thread) = row.choice;
        let workgroup_size = match width {
            Width::AtMost(most) => widest.min(most),
            Width::Widest => widest,
        };
        let next = ScanTuning {
            workgroup_size,
            vecs_per_thread,
            lookback_spins: 0,
        };
        if list
            .last()
            .map_or(true, |g| next.tile_elements() > g.tile_elements())
        {
            list.push(next);
        }
    }
    list
}

/// The look-back path's tiles by count ([`LOOKBACK_TIERS`]) for a plan of the default
/// `tuning` on a device allowing workgroups of `max_invocations`: (largest count, tuning),
/// ascending.
pub(super) fn lookback_tiers(
    class: DeviceClass,
    max_invocations: u32,
    tuning: &ScanTuning,
    key_bits: u32,
) -> Vec<(u64, ScanTuning)> {
    let table = if key_bits == 64 && class != DeviceClass::Cpu {
        WIDE_LOOKBACK_TIERS
    } else {
        LOOKBACK_TIERS
    };
    rows_for(table, class, |_| true)
        .filter(|row| row.choice.needs_workgroup <= max_invocations)
        .map(|row| {
            let tier = row.choice;
            let shape = ScanTuning {
                workgroup_size: tier.workgroup_size.unwrap_or(tuning.workgroup_size),
                vecs_per_thread: tier.vecs_per_thread.unwrap_or(tuning.vecs_per_thread),
                ..*tuning
            };
            (row.when, shape)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::tuning::assert_anchors;

    const DOC: &str = include_str!("../../docs/tuning/scan.md");
    const CLASSES: [DeviceClass; 3] = [DeviceClass::Nvidia, DeviceClass::OtherGpu, DeviceClass::Cpu];

    #[test]
    fn every_row_has_its_evidence() {
        assert_anchors(DEFAULT_SHAPE, DOC);
        assert_anchors(LOOKBACK_SPINS, DOC);
        assert_anchors(SMALL_LIMIT, DOC);
        assert_anchors(SMALL_TILES, DOC);
        assert_anchors(LOOKBACK_TIERS, DOC);
        assert_anchors(WIDE_SHAPE, DOC);
        assert_anchors(WIDE_LOOKBACK_TIERS, DOC);
    }

    fn tuning(workgroup_size: u32, vecs_per_thread: u32) -> ScanTuning {
        ScanTuning {
            workgroup_size,
            vecs_per_thread,
            lookback_spins: 0,
        }
    }

    /// 64-bit elements on GPUs: 256 x 4 above 2^18, 256 x 2 up to it; CPU drivers as for
    /// 32-bit elements.
    #[test]
    fn wide_elements_take_half_the_vectors() {
        for class in CLASSES {
            let plan = default_tuning_for(class, 64);
            if class == DeviceClass::Cpu {
                assert_eq!(plan, default_tuning(class));
                assert_eq!(
                    lookback_tiers(class, 1024, &plan, 64),
                    lookback_tiers(class, 1024, &plan, 32)
                );
            } else {
                assert_eq!(plan, tuning(256, 4));
                assert_eq!(
                    lookback_tiers(class, 1024, &plan, 64),
                    vec![(1u64 << 18, tuning(256, 2))]
                );
            }
        }
    }

    /// The tables give the choices the code made before it had tables.
    #[test]
    fn tables_keep_the_choices() {
        for class in CLASSES {
            let cpu = class == DeviceClass::Cpu;
            assert_eq!(default_tuning(class), tuning(256, if cpu { 4 } else { 8 }));
            assert_eq!(default_spins(class), if cpu { 32 } else { 256 });
            for max in [32u32, 64, 100, 256, 512, 768, 1024, 2048] {
                let widest = 1u32 << (31 - max.clamp(32, 1024).leading_zeros());
                let geometries = small_geometries(class, max);
                let mut expected = vec![tuning(widest.min(256), 1)];
                for vecs in [1, 2, 4] {
                    let next = tuning(widest, vecs);
                    if next.tile_elements() > expected.last().unwrap().tile_elements() {
                        expected.push(next);
                    }
                }
                assert_eq!(geometries, expected, "{class:?} {max}");
                let largest = expected.last().unwrap().tile_elements();
                assert_eq!(small_limit(class, &geometries), if cpu { 0 } else { largest });
                assert_eq!(small_limit(class, &[]), if cpu { 0 } else { 1 << 13 });
                for plan in [default_tuning(class), tuning(128, 3)] {
                    let mut expected = vec![(1u64 << 18, tuning(plan.workgroup_size, 2))];
                    if !cpu {
                        for (limit, wg, vecs) in [(1u64 << 20, 512, 2), (1 << 21, 512, 4)] {
                            if wg <= max {
                                expected.push((limit, tuning(wg, vecs)));
                            }
                        }
                        if max >= 1024 {
                            expected.push((1 << 25, plan));
                            expected.push((u64::MAX, tuning(1024, 8)));
                        }
                    }
                    assert_eq!(lookback_tiers(class, max, &plan, 32), expected, "{class:?} {max}");
                }
            }
        }
    }
}
