//! The hash map's tuning tables: rows per device class, the evidence of each in
//! `docs/tuning/hash.md` under its anchor.

use super::apply::ApplySharedShape;
use super::HashTuning;
use crate::core::tuning::{first_row, DeviceClass, Devices, TuningRow};

/// The per-key kernels' default shape ([`HashTuning::for_device`]): (invocations per
/// workgroup, keys per invocation).
pub(super) const KERNEL_SHAPE: &[TuningRow<(), (u32, u32)>] = &[
    TuningRow {
        devices: Devices::Nvidia,
        when: (),
        choice: (256, 3),
        why: "three keys per invocation: the best erase rate, inserts as fast as with two",
        anchor: "kernel-shape",
    },
    TuningRow {
        devices: Devices::OtherGpu,
        when: (),
        choice: (256, 3),
        why: "NVIDIA's choice, not measured",
        anchor: "kernel-shape",
    },
    TuningRow {
        devices: Devices::Cpu,
        when: (),
        choice: (256, 1),
        why: "one key per invocation stays under the CPU drivers' loop cap",
        anchor: "cpu-loop-cap",
    },
];

/// The bucket size of maps that ask for none ([`super::HashMapDesc::default_bucket_bytes`]):
/// one row, for every device.
pub(super) const BUCKET_BYTES: TuningRow<(), u32> = TuningRow {
    devices: Devices::Any,
    when: (),
    choice: 32,
    why: "a probe's second sector costs more than shorter probe sequences save",
    anchor: "bucket-bytes",
};

/// The shared-memory insert-or-apply's shape (glsl/hash/apply_shared.comp).
pub(super) const APPLY_SHARED_SHAPE: &[TuningRow<(), ApplySharedShape>] = &[
    TuningRow {
        devices: Devices::Nvidia,
        when: (),
        choice: ApplySharedShape {
            workgroup_size: 1024,
            keys_per_invocation: 1,
            slots: 4096,
        },
        why: "two workgroups of 1024 fill a multiprocessor within its shared memory; 4096 slots \
              keep 2^10 distinct keys at a quarter load",
        anchor: "apply-shared",
    },
    TuningRow {
        devices: Devices::OtherGpu,
        when: (),
        choice: ApplySharedShape {
            workgroup_size: 256,
            keys_per_invocation: 8,
            slots: 2048,
        },
        why: "NVIDIA's earlier shape: 256 invocations and 16 KiB of shared memory fit every GPU",
        anchor: "apply-shared",
    },
    TuningRow {
        devices: Devices::Cpu,
        when: (),
        choice: ApplySharedShape {
            workgroup_size: 256,
            keys_per_invocation: 1,
            slots: 512,
        },
        why: "the final walk stays at two map inserts per invocation",
        anchor: "cpu-loop-cap",
    },
];

/// The shared-memory insert-or-apply's shape on a device of `class` ([`APPLY_SHARED_SHAPE`]).
pub(super) fn apply_shared_shape(class: DeviceClass) -> ApplySharedShape {
    first_row(APPLY_SHARED_SHAPE, class, |_| true)
        .expect("an insert-or-apply shape for every device class")
        .choice
}

/// The most workgroups of the shared-memory insert-or-apply (glsl/hash/apply_shared.comp): each
/// walks its share of the batch's tiles, so fewer workgroups combine more keys each.
pub(super) const APPLY_SHARED_GROUPS: &[TuningRow<(), u32>] = &[
    TuningRow {
        devices: Devices::Nvidia,
        when: (),
        choice: 1024,
        why: "a few resident waves; each workgroup combines a large share of the batch",
        anchor: "apply-shared",
    },
    TuningRow {
        devices: Devices::OtherGpu,
        when: (),
        choice: 1024,
        why: "NVIDIA's choice, not measured",
        anchor: "apply-shared",
    },
    TuningRow {
        devices: Devices::Cpu,
        when: (),
        choice: 64,
        why: "few cores: a small grid, each workgroup walking many tiles",
        anchor: "apply-shared",
    },
];

/// The shared-memory insert-or-apply's most workgroups on a device of `class`.
pub(super) fn apply_shared_groups(class: DeviceClass) -> u32 {
    first_row(APPLY_SHARED_GROUPS, class, |_| true)
        .expect("an insert-or-apply grid for every device class")
        .choice
}

/// The most workgroups of a reclaim pass (glsl/hash/reclaim.comp): each strides over the
/// buckets, so a pass with nothing to do (most erases) launches few workgroups.
pub(super) const RECLAIM_GROUPS: &[TuningRow<(), u32>] = &[
    TuningRow {
        devices: Devices::Gpu,
        when: (),
        choice: 1024,
        why: "a few resident waves: an idle pass costs microseconds",
        anchor: "reclaim",
    },
    TuningRow {
        devices: Devices::Cpu,
        when: (),
        choice: u32::MAX,
        why: "one bucket per invocation keeps the key walks under the CPU drivers' loop cap",
        anchor: "cpu-loop-cap",
    },
];

/// How the reclaim's move writes a key into the tombstone it claimed: with the value in one
/// vector store (false), or the value first and the key after it by a compare-and-swap (true),
/// where a vector store may be seen a component at a time.
pub(super) const RECLAIM_KEY_LAST: &[TuningRow<(), bool>] = &[
    TuningRow {
        devices: Devices::Gpu,
        when: (),
        choice: false,
        why: "an aligned vector store is seen whole: key and value arrive together",
        anchor: "reclaim-move-store",
    },
    TuningRow {
        devices: Devices::Cpu,
        when: (),
        choice: true,
        why: "lavapipe stores a vector a component at a time: a 64-bit key could be read torn",
        anchor: "reclaim-move-store",
    },
];

/// Whether the reclaim's move on a device of `class` stores the key last ([`RECLAIM_KEY_LAST`]).
pub(super) fn reclaim_key_last(class: DeviceClass) -> bool {
    first_row(RECLAIM_KEY_LAST, class, |_| true).is_some_and(|row| row.choice)
}

/// The reclaim passes' most workgroups on a device of `class`.
pub(super) fn reclaim_groups(class: DeviceClass) -> u32 {
    first_row(RECLAIM_GROUPS, class, |_| true)
        .expect("a reclaim grid for every device class")
        .choice
}

/// The per-key kernels' tuning on a device of `class` ([`KERNEL_SHAPE`]).
pub(super) fn default_tuning(class: DeviceClass) -> HashTuning {
    let (workgroup_size, keys_per_invocation) = first_row(KERNEL_SHAPE, class, |_| true)
        .expect("a hash kernel shape for every device class")
        .choice;
    HashTuning {
        workgroup_size,
        keys_per_invocation,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::tuning::assert_anchors;

    const DOC: &str = include_str!("../../docs/tuning/hash.md");

    #[test]
    fn every_row_has_its_evidence() {
        assert_anchors(KERNEL_SHAPE, DOC);
        assert_anchors(&[BUCKET_BYTES], DOC);
        assert_anchors(APPLY_SHARED_GROUPS, DOC);
        assert_anchors(APPLY_SHARED_SHAPE, DOC);
        assert_anchors(RECLAIM_GROUPS, DOC);
        assert_anchors(RECLAIM_KEY_LAST, DOC);
    }

    /// The tables give the shapes docs/tuning/hash.md holds the evidence for.
    #[test]
    fn tables_keep_the_choices() {
        for class in [DeviceClass::Nvidia, DeviceClass::OtherGpu, DeviceClass::Cpu] {
            let keys = if class == DeviceClass::Cpu { 1 } else { 3 };
            assert_eq!(
                default_tuning(class),
                HashTuning {
                    workgroup_size: 256,
                    keys_per_invocation: keys
                }
            );
        }
        assert_eq!(BUCKET_BYTES.choice, 32);
    }
}
