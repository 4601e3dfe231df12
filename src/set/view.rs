//! The device view of a set: what a caller's shader needs to test membership through
//! `glsl/public/vkalgo_set.glsl`.

use super::gpu::GpuSet;

/// What a shader needs to test membership in a set (glsl/public/vkalgo_set.glsl:
/// `VkalgoSetView`; C: `VkalgoSetDeviceView`). 16 bytes, the same layout in push constants,
/// std140 and std430. Valid until the next call that changes the set (inserts, removals,
/// operations written into it, pack, unpack, reserve, shrink, run_optimize).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, bytemuck::Pod, bytemuck::Zeroable)]
#[repr(C)]
pub struct SetDeviceView {
    /// Device address of the set's control block (pool addresses, then the directory).
    pub control: u64,
    /// 1 where the directory is packed ([`GpuSet::pack`]), else 0.
    pub packed: u32,
    /// 0.
    pub reserved: u32,
}

impl GpuSet {
    /// What a shader needs to test membership in this set (glsl/public/vkalgo_set.glsl).
    pub fn device_view(&self) -> SetDeviceView {
        SetDeviceView {
            control: self.meta(),
            packed: u32::from(self.is_packed()),
            reserved: 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::layout::{
        ARRAY_BLOCK_BYTES, BITMAP_BLOCK_BYTES, CARD_MASK, DIR_INDEX_BYTES, META_DIR, RUN_SHIFT,
    };
    use super::super::roaring::{ARRAY_MAX, CHUNK_VALUES};

    /// The public include's layout constants are the library's.
    #[test]
    fn public_include_matches_the_layout() {
        let text = include_str!("../../glsl/public/vkalgo_set.glsl");
        let value = |name: &str| -> u64 {
            let line = text
                .lines()
                .find(|l| l.contains(&format!(" {name} = ")))
                .unwrap_or_else(|| panic!("{name} missing from vkalgo_set.glsl"));
            let number = line.split('=').nth(1).unwrap().trim().trim_end_matches(';');
            number
                .trim_end_matches("ul")
                .trim_end_matches('u')
                .parse()
                .unwrap()
        };
        assert_eq!(value("VKALGO_SET_FULL"), CHUNK_VALUES as u64);
        assert_eq!(value("VKALGO_SET_ARRAY_MAX"), ARRAY_MAX as u64);
        assert_eq!(value("VKALGO_SET_CARD_MASK"), CARD_MASK as u64);
        assert_eq!(value("VKALGO_SET_RUN_SHIFT"), RUN_SHIFT as u64);
        assert_eq!(value("VKALGO_SET_ARRAY_BLOCK_WORDS"), ARRAY_BLOCK_BYTES / 4);
        assert_eq!(value("VKALGO_SET_BITMAP_WORDS"), BITMAP_BLOCK_BYTES / 4);
        assert_eq!(value("VKALGO_SET_DIR_OFFSET"), META_DIR);
        assert_eq!(value("VKALGO_SET_DIR_INDEX_BYTES"), DIR_INDEX_BYTES);
    }
}
