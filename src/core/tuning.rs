//! The shape every algorithm's tuning table shares: device classes and rows. Each algorithm
//! keeps its table in `src/<algo>/tuning.rs`; the evidence behind each row is in
//! `docs/tuning/<algo>.md`, under the row's anchor.

use super::context::Context;
use super::profile::{DeviceProfile, DeviceType};

/// PCI vendor id of NVIDIA.
const NVIDIA: u32 = 0x10DE;

/// The classes of device a tuning table has rows for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum DeviceClass {
    /// NVIDIA GPUs, whose rows come from measurement.
    Nvidia,
    /// Every other GPU: the NVIDIA choices as defaults, not measured.
    OtherGpu,
    /// CPU implementations (lavapipe and the like): small subgroups, few cores.
    Cpu,
}

impl Context {
    /// The class of this context's device, for the tuning tables.
    pub(crate) fn device_class(&self) -> DeviceClass {
        DeviceClass::of(&self.profile)
    }
}

impl DeviceClass {
    /// The class of the device `profile` describes.
    pub(crate) fn of(profile: &DeviceProfile) -> DeviceClass {
        if profile.device_type == DeviceType::Cpu {
            DeviceClass::Cpu
        } else if profile.vendor_id == NVIDIA {
            DeviceClass::Nvidia
        } else {
            DeviceClass::OtherGpu
        }
    }
}

/// Whether the single-pass look-back kernels take their tiles by atomic ticket rather than by
/// workgroup id (TILE_TICKETS, constant_id 7 of every pipeline: glsl/common/tile_ticket.glsl).
pub(crate) const TILE_TICKETS: &[TuningRow<(), bool>] = &[
    TuningRow {
        devices: Devices::Gpu,
        when: (),
        choice: false,
        why: "GPUs start workgroups in order; a ticket costs an atomic and a barrier per tile",
        anchor: "tile-tickets",
    },
    TuningRow {
        devices: Devices::Cpu,
        when: (),
        choice: true,
        why: "lavapipe runs workgroups in per-thread blocks: a block's first tile would walk back alone",
        anchor: "tile-tickets",
    },
];

/// Whether a device of `class` takes look-back tiles by ticket ([`TILE_TICKETS`]).
pub(crate) fn tile_tickets(class: DeviceClass) -> bool {
    first_row(TILE_TICKETS, class, |_| true).is_some_and(|row| row.choice)
}

/// A default tile of `workgroup_size` x `items` fitted to a device whose workgroups hold at most
/// `limit` invocations: the workgroup halved and the items doubled (up to `max_items`) until it
/// fits, so that the tile keeps its size where it can. Vulkan guarantees at least 128.
pub(crate) fn fit_workgroup(limit: u32, workgroup_size: u32, items: u32, max_items: u32) -> (u32, u32) {
    let (mut wg, mut items) = (workgroup_size, items);
    while wg > limit.max(32) && wg > 32 {
        wg /= 2;
        items = (items * 2).min(max_items);
    }
    (wg, items)
}

/// The device classes a tuning row applies to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Devices {
    /// Every device.
    Any,
    /// Every GPU (NVIDIA and others).
    Gpu,
    /// NVIDIA GPUs only.
    Nvidia,
    /// GPUs other than NVIDIA's only.
    OtherGpu,
    /// CPU implementations only.
    Cpu,
}

impl Devices {
    /// Whether a device of `class` is one of these.
    pub(crate) fn contains(self, class: DeviceClass) -> bool {
        match self {
            Devices::Any => true,
            Devices::Gpu => class != DeviceClass::Cpu,
            Devices::Nvidia => class == DeviceClass::Nvidia,
            Devices::OtherGpu => class == DeviceClass::OtherGpu,
            Devices::Cpu => class == DeviceClass::Cpu,
        }
    }
}

/// One row of a tuning table: on `devices`, where `when` holds, take `choice`, for the reason
/// `why`; `docs/tuning/<algo>.md` holds the evidence under `<a id="anchor">`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct TuningRow<W, C> {
    /// The devices the row is for.
    pub devices: Devices,
    /// The condition (algorithm-specific: sizes, types, bucket counts).
    pub when: W,
    /// What the row chooses.
    pub choice: C,
    /// The reason, in a few words.
    pub why: &'static str,
    /// The anchor of the evidence in `docs/tuning/<algo>.md`.
    pub anchor: &'static str,
}

/// The first row of `table` for a device of `class` whose condition `holds`.
pub(crate) fn first_row<W, C>(
    table: &[TuningRow<W, C>],
    class: DeviceClass,
    holds: impl Fn(&W) -> bool,
) -> Option<&TuningRow<W, C>> {
    let row = table
        .iter()
        .find(|row| row.devices.contains(class) && holds(&row.when));
    if let Some(row) = row {
        log::trace!("tuning row {}: {}", row.anchor, row.why);
    }
    row
}

/// Every row of `table` for a device of `class` whose condition `holds`, in table order (for
/// tables whose first row that also fits the device's limits wins).
pub(crate) fn rows_for<'a, W, C>(
    table: &'a [TuningRow<W, C>],
    class: DeviceClass,
    holds: impl Fn(&W) -> bool + 'a,
) -> impl Iterator<Item = &'a TuningRow<W, C>> + 'a {
    table
        .iter()
        .filter(move |row| row.devices.contains(class) && holds(&row.when))
}

/// Test helper: every row of `table` has a reason and an anchor that `doc` (the text of
/// `docs/tuning/<algo>.md`) defines as `<a id="anchor"></a>`.
#[cfg(test)]
pub(crate) fn assert_anchors<W, C>(table: &[TuningRow<W, C>], doc: &str) {
    for row in table {
        assert!(
            !row.why.is_empty(),
            "a tuning row without a reason (anchor {})",
            row.anchor
        );
        let marker = format!("<a id=\"{}\"></a>", row.anchor);
        assert!(
            doc.contains(&marker),
            "tuning anchor {} is not defined in the tuning document",
            row.anchor
        );
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn default_tiles_fit_small_workgroup_limits() {
        assert_eq!(fit_workgroup(1024, 1024, 8, 16), (1024, 8));
        assert_eq!(fit_workgroup(512, 1024, 8, 16), (512, 16));
        assert_eq!(fit_workgroup(384, 1024, 8, 16), (256, 16));
        assert_eq!(fit_workgroup(128, 1024, 16, 16), (128, 16));
        assert_eq!(fit_workgroup(128, 256, 8, 16), (128, 16));
    }
    use super::*;

    #[test]
    fn core_rows_have_their_reasons() {
        assert_anchors(TILE_TICKETS, include_str!("../../docs/tuning/core.md"));
    }

    const TABLE: &[TuningRow<u32, u32>] = &[
        TuningRow {
            devices: Devices::Cpu,
            when: 0,
            choice: 1,
            why: "cpu",
            anchor: "a",
        },
        TuningRow {
            devices: Devices::Nvidia,
            when: 0,
            choice: 2,
            why: "nvidia",
            anchor: "b",
        },
        TuningRow {
            devices: Devices::Gpu,
            when: 0,
            choice: 3,
            why: "gpu",
            anchor: "c",
        },
        TuningRow {
            devices: Devices::Any,
            when: 1,
            choice: 4,
            why: "any",
            anchor: "d",
        },
    ];

    #[test]
    fn rows_follow_class_and_condition() {
        let choice = |class, when| first_row(TABLE, class, |w| *w == when).map(|r| r.choice);
        assert_eq!(choice(DeviceClass::Cpu, 0), Some(1));
        assert_eq!(choice(DeviceClass::Nvidia, 0), Some(2));
        assert_eq!(choice(DeviceClass::OtherGpu, 0), Some(3));
        assert_eq!(choice(DeviceClass::OtherGpu, 1), Some(4));
        assert_eq!(choice(DeviceClass::Cpu, 2), None);
        let all: Vec<u32> = rows_for(TABLE, DeviceClass::Nvidia, |w| *w == 0)
            .map(|r| r.choice)
            .collect();
        assert_eq!(all, [2, 3]);
        assert!(
            Devices::OtherGpu.contains(DeviceClass::OtherGpu)
                && !Devices::OtherGpu.contains(DeviceClass::Nvidia)
        );
    }

    #[test]
    fn anchors_are_checked() {
        assert_anchors(
            TABLE,
            r#"<a id="a"></a> <a id="b"></a> <a id="c"></a> <a id="d"></a>"#,
        );
        let missing = std::panic::catch_unwind(|| assert_anchors(TABLE, r#"<a id="a"></a>"#));
        assert!(missing.is_err());
    }

    /// Every `docs/<page>.md#<anchor>` that a comment in `src/` or `glsl/` names is defined on
    /// that page (`<a id="anchor"></a>`).
    #[test]
    fn documented_anchors_exist() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut files = Vec::new();
        let mut dirs = vec![root.join("src"), root.join("glsl")];
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    dirs.push(path);
                } else if path
                    .extension()
                    .is_some_and(|e| e == "rs" || e == "glsl" || e == "comp")
                {
                    files.push(path);
                }
            }
        }
        let mut checked = 0;
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap();
            for (at, _) in text.match_indices("docs/") {
                let rest = &text[at..];
                let end = rest
                    .find(|c: char| !(c.is_ascii_alphanumeric() || "/_-.#".contains(c)))
                    .unwrap_or(rest.len());
                let Some((page, anchor)) = rest[..end].split_once(".md#") else {
                    continue;
                };
                let anchor = anchor.trim_end_matches('.');
                let doc = std::fs::read_to_string(root.join(format!("{page}.md")))
                    .unwrap_or_else(|e| panic!("{}: {page}.md: {e}", file.display()));
                assert!(
                    doc.contains(&format!("<a id=\"{anchor}\"></a>")),
                    "{} names {page}.md#{anchor}, which that page does not define",
                    file.display()
                );
                checked += 1;
            }
        }
        assert!(checked > 0, "no documented anchor found in src/ or glsl/");
    }
}
