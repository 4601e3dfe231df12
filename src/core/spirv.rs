//! Push-constant layouts: the `push_constants!` macro that defines a Rust push-constant struct
//! together with its field offsets, and a small SPIR-V reader that extracts the push-constant
//! block of a compiled shader, so a test can prove both sides agree.

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
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) fn instructions(spirv: &[u8]) -> Vec<(u32, Vec<u32>)> {
    let words: Vec<u32> = spirv
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
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

/// The members (name, offset) of the push-constant block of a SPIR-V module, in member order.
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) fn push_constant_members(spirv: &[u8]) -> Vec<(String, u32)> {
    use std::collections::HashMap;
    const OP_MEMBER_NAME: u32 = 6;
    const OP_TYPE_POINTER: u32 = 32;
    const OP_MEMBER_DECORATE: u32 = 72;
    const DECORATION_OFFSET: u32 = 35;
    const STORAGE_PUSH_CONSTANT: u32 = 9;
    let mut names: HashMap<(u32, u32), String> = HashMap::new();
    let mut offsets: HashMap<(u32, u32), u32> = HashMap::new();
    let mut pointees = Vec::new();
    for (op, args) in instructions(spirv) {
        match op {
            OP_MEMBER_NAME => {
                let bytes: Vec<u8> = args[2..].iter().flat_map(|w| w.to_le_bytes()).collect();
                let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
                names.insert(
                    (args[0], args[1]),
                    String::from_utf8_lossy(&bytes[..end]).into_owned(),
                );
            }
            OP_MEMBER_DECORATE if args[2] == DECORATION_OFFSET => {
                offsets.insert((args[0], args[1]), args[3]);
            }
            OP_TYPE_POINTER if args[1] == STORAGE_PUSH_CONSTANT => pointees.push(args[2]),
            _ => {}
        }
    }
    // Pointers to single members share the storage class: the block is the struct pointee.
    let Some(block) = pointees
        .into_iter()
        .find(|t| offsets.keys().any(|(ty, _)| ty == t))
    else {
        return Vec::new();
    };
    let mut members: Vec<(u32, String, u32)> = offsets
        .iter()
        .filter(|((ty, _), _)| *ty == block)
        .map(|(&(_, m), &off)| (m, names.get(&(block, m)).cloned().unwrap_or_default(), off))
        .collect();
    members.sort();
    members.into_iter().map(|(_, n, o)| (n, o)).collect()
}

#[cfg(test)]
mod tests {
    use super::super::shaders::ALL_SHADERS;
    use super::instructions;

    /// No shader reduces a subgroup by addition (`subgroupAdd`): the NVIDIA driver compiled it
    /// under a stale predicate in kernels that loop over tiles, so the kernels take sums from
    /// `subgroup_total` and `subgroup_sum` (glsl/common/vkalgo.glsl) instead.
    #[test]
    fn no_shader_reduces_a_subgroup_by_addition() {
        const OP_GROUP_NON_UNIFORM_IADD: u32 = 349;
        const GROUP_OPERATION_REDUCE: u32 = 0;
        let mut scans = 0;
        for shader in ALL_SHADERS {
            for (op, args) in instructions(shader.spirv) {
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
