//! The two SPIR-V walks the generator needs: the push-constant block's members (read while the
//! module still has its debug names) and the removal of debug instructions.

/// Debug instructions (SPIR-V section 2.4, "debug instructions", and OpLine/OpNoLine): no
/// effect on the compiled code; `OpSource` alone carries the whole GLSL source.
const DEBUG_OPCODES: [u32; 9] = [
    2,   // OpSourceContinued
    3,   // OpSource
    4,   // OpSourceExtension
    5,   // OpName
    6,   // OpMemberName
    7,   // OpString
    8,   // OpLine
    317, // OpNoLine
    330, // OpModuleProcessed
];

/// The module as words, checked to be SPIR-V with whole instructions.
pub fn words(bytes: &[u8]) -> Result<Vec<u32>, String> {
    if !bytes.len().is_multiple_of(4) || bytes.len() < 20 {
        return Err(format!("{} bytes: not a SPIR-V module", bytes.len()));
    }
    let words: Vec<u32> = bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    if words[0] != 0x0723_0203 {
        return Err("bad SPIR-V magic".into());
    }
    let mut i = 5;
    while i < words.len() {
        let count = (words[i] >> 16) as usize;
        if count == 0 || i + count > words.len() {
            return Err(format!("truncated instruction at word {i}"));
        }
        i += count;
    }
    Ok(words)
}

/// (opcode, operands) of every instruction after the header.
fn instructions(words: &[u32]) -> impl Iterator<Item = (u32, &[u32])> {
    let mut i = 5;
    std::iter::from_fn(move || {
        if i >= words.len() {
            return None;
        }
        let count = (words[i] >> 16) as usize;
        let item = (words[i] & 0xffff, &words[i + 1..i + count]);
        i += count;
        Some(item)
    })
}

/// The module without its debug instructions.
pub fn strip_debug(words: &[u32]) -> Vec<u32> {
    let mut out = words[..5].to_vec();
    let mut i = 5;
    while i < words.len() {
        let count = (words[i] >> 16) as usize;
        if !DEBUG_OPCODES.contains(&(words[i] & 0xffff)) {
            out.extend_from_slice(&words[i..i + count]);
        }
        i += count;
    }
    out
}

/// The members (name, byte offset) of the module's push-constant block, in member order;
/// empty when it has none. Needs the debug names (OpMemberName).
pub fn push_constant_members(words: &[u32]) -> Result<Vec<(String, u32)>, String> {
    use std::collections::HashMap;
    const OP_MEMBER_NAME: u32 = 6;
    const OP_TYPE_POINTER: u32 = 32;
    const OP_MEMBER_DECORATE: u32 = 72;
    const DECORATION_OFFSET: u32 = 35;
    const STORAGE_PUSH_CONSTANT: u32 = 9;
    let mut names: HashMap<(u32, u32), String> = HashMap::new();
    let mut offsets: HashMap<(u32, u32), u32> = HashMap::new();
    let mut pointees = Vec::new();
    for (op, args) in instructions(words) {
        match op {
            OP_MEMBER_NAME => {
                let bytes: Vec<u8> = args[2..].iter().flat_map(|w| w.to_le_bytes()).collect();
                let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
                let name = String::from_utf8(bytes[..end].to_vec()).map_err(|e| e.to_string())?;
                names.insert((args[0], args[1]), name);
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
        return Ok(Vec::new());
    };
    let mut members: Vec<(u32, u32)> = offsets
        .iter()
        .filter(|((ty, _), _)| *ty == block)
        .map(|(&(_, member), &offset)| (member, offset))
        .collect();
    members.sort();
    members
        .into_iter()
        .map(|(member, offset)| {
            let name = names
                .get(&(block, member))
                .cloned()
                .ok_or_else(|| format!("push-constant member {member} has no name (debug info?)"))?;
            Ok((name, offset))
        })
        .collect()
}
