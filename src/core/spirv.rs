//! Push-constant layouts: the `push_constants!` macro that defines a Rust push-constant struct
//! together with its field offsets, so a test can prove it agrees with the GLSL block the
//! shader generator reflected; and a SPIR-V instruction walk for tests.

/// Field names and byte offsets of a push-constant struct.
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) trait PushLayout: bytemuck::Pod {
    /// (field name, byte offset) in declaration order.
    const FIELDS: &'static [(&'static str, usize)];
}

/// Defines a `#[repr(C)]` push-constant struct and its [`PushLayout`]. Field names must equal
/// the GLSL block's member names (fields named `_pad...` are padding, absent from GLSL).
macro_rules! push_constants {
    ($(#[$meta:meta])* $vis:vis struct $name:ident {
        $($(#[$fmeta:meta])* $fvis:vis $field:ident : $ty:ty),* $(,)?
    }) => {
        $(#[$meta])*
        #[repr(C)]
        #[derive(Clone, Copy, Debug, Default, bytemuck::Pod, bytemuck::Zeroable)]
        $vis struct $name {
            $($(#[$fmeta])* $fvis $field: $ty),*
        }
        impl $crate::core::spirv::PushLayout for $name {
            const FIELDS: &'static [(&'static str, usize)] =
                &[$((stringify!($field), ::core::mem::offset_of!($name, $field))),*];
        }
    };
}
pub(crate) use push_constants;

/// A shader with the push-constant layout its Rust side uses: (shader, fields, struct size).
#[cfg(test)]
pub(crate) type PushCheck = (
    super::shaders::ShaderSource,
    &'static [(&'static str, usize)],
    usize,
);

/// The instructions of a SPIR-V module after its header: (opcode, operands) each; a truncated
/// or malformed instruction ends the walk.
#[cfg(test)]
pub(crate) fn instructions(words: &[u32]) -> Vec<(u32, Vec<u32>)> {
    let mut found = Vec::new();
    let mut i = 5;
    while i < words.len() {
        let count = (words[i] >> 16) as usize;
        if count == 0 || i + count > words.len() {
            break;
        }
        found.push((words[i] & 0xffff, words[i + 1..i + count].to_vec()));
        i += count;
    }
    found
}

#[cfg(test)]
mod tests {
    use super::super::shaders::ALL_SHADERS;
    use super::instructions;

    /// No shader reduces a subgroup by addition (`subgroupAdd`): the NVIDIA driver compiled it
    /// under a stale predicate in kernels that loop over tiles
    /// (docs/driver-bugs.md#nvidia-subgroup-add), so the kernels take sums from
    /// `subgroup_total` and `subgroup_sum` (glsl/common/vkalgo.glsl) instead.
    #[test]
    fn no_shader_reduces_a_subgroup_by_addition() {
        const OP_GROUP_NON_UNIFORM_IADD: u32 = 349;
        const GROUP_OPERATION_REDUCE: u32 = 0;
        let mut scans = 0;
        for shader in ALL_SHADERS {
            for (op, args) in instructions(&shader.spirv().unwrap()) {
                if op == OP_GROUP_NON_UNIFORM_IADD {
                    // Result type, result, scope, group operation, value.
                    assert_ne!(
                        args[3], GROUP_OPERATION_REDUCE,
                        "{}: subgroupAdd; use subgroup_sum or subgroup_total",
                        shader.name
                    );
                    scans += 1;
                }
            }
        }
        // The check sees the scans that subgroup_total is built on.
        assert!(
            scans > 0,
            "no subgroup additions found in {} shaders",
            ALL_SHADERS.len()
        );
    }
}
