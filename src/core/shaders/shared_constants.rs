//! The constants Rust and GLSL share. Each room lists the ones it owns
//! (`src/<room>/shared_constants.rs`, from its Rust constants); `glsl/generated/<room>.glsl` is
//! rendered from the list, and the test below fails when a committed header differs from it
//! (`VKALGO_UPDATE_GLSL=1` rewrites them). `cargo xtask shaders --check` then checks the SPIR-V
//! against the headers, so a Rust value and the kernels cannot drift apart.

use std::fmt::Write as _;

/// The GLSL type a constant is written in (its literal suffix).
#[derive(Clone, Copy)]
pub(crate) enum GlslType {
    /// `uint`: `12u`.
    Uint,
    /// `uint64_t`: `12ul`.
    Uint64,
    /// `int`: `12` (shift counts written as plain literals).
    Int,
}

/// One `#define` of a generated header.
pub(crate) struct GlslConstant {
    name: &'static str,
    value: u64,
    ty: GlslType,
}

impl GlslConstant {
    /// A `uint` constant.
    pub(crate) const fn uint(name: &'static str, value: u32) -> Self {
        GlslConstant {
            name,
            value: value as u64,
            ty: GlslType::Uint,
        }
    }

    /// A `uint64_t` constant.
    pub(crate) const fn uint64(name: &'static str, value: u64) -> Self {
        GlslConstant {
            name,
            value,
            ty: GlslType::Uint64,
        }
    }

    /// An `int` constant (non-negative).
    pub(crate) const fn int(name: &'static str, value: u32) -> Self {
        GlslConstant {
            name,
            value: value as u64,
            ty: GlslType::Int,
        }
    }
}

/// One generated header: `glsl/generated/<file>.glsl`, rendered from `constants`, which
/// `source` (a path under src/) lists.
pub(crate) struct GeneratedHeader {
    /// The header's name under glsl/generated/, without `.glsl`.
    pub(crate) file: &'static str,
    /// The Rust file that lists the constants.
    pub(crate) source: &'static str,
    /// What the header holds, one line.
    pub(crate) summary: &'static str,
    /// The constants, in header order.
    pub(crate) constants: &'static [GlslConstant],
}

/// Every generated header.
fn headers() -> Vec<&'static GeneratedHeader> {
    vec![
        &crate::sort::shared_constants::SORT,
        &crate::split::shared_constants::BUCKET_FN,
        &crate::split::shared_constants::SPLIT,
        &crate::merge::shared_constants::MERGE,
        &crate::scan::shared_constants::SCAN,
        &crate::set::shared_constants::SET,
        &crate::hash::shared_constants::HASH,
        &crate::reduce::shared_constants::REDUCE,
        &crate::histogram::shared_constants::HISTOGRAM,
        &crate::select::shared_constants::SELECT,
        &crate::segmented_sort::shared_constants::SEGMENTED_SORT,
        &crate::reduce_by_key::shared_constants::REDUCE_BY_KEY,
    ]
}

/// The header's text.
fn render(header: &GeneratedHeader) -> String {
    let guard = format!("VKALGO_GENERATED_{}_GLSL", header.file.to_uppercase());
    let mut text = String::new();
    writeln!(
        text,
        "// @generated from {} by a unit test; do not edit.",
        header.source
    )
    .unwrap();
    writeln!(
        text,
        "// `VKALGO_UPDATE_GLSL=1 cargo test -p vkalgo --lib shared_constants` rewrites it."
    )
    .unwrap();
    writeln!(text, "// {}", header.summary).unwrap();
    writeln!(text, "#ifndef {guard}\n#define {guard}\n").unwrap();
    for c in header.constants {
        let suffix = match c.ty {
            GlslType::Uint => "u",
            GlslType::Uint64 => "ul",
            GlslType::Int => "",
        };
        writeln!(text, "#define {} {}{suffix}", c.name, c.value).unwrap();
    }
    writeln!(text, "\n#endif").unwrap();
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    /// Every header in glsl/generated/ is the rendering of its list; no other file is there.
    #[test]
    fn generated_glsl_headers_match_the_rust_constants() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("glsl/generated");
        let update = std::env::var("VKALGO_UPDATE_GLSL").is_ok_and(|v| v == "1");
        let mut expected = Vec::new();
        let mut stale = Vec::new();
        for header in headers() {
            let name = format!("{}.glsl", header.file);
            let text = render(header);
            let path = dir.join(&name);
            if update {
                std::fs::write(&path, &text).unwrap();
            } else if std::fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
                stale.push(name.clone());
            }
            expected.push(name);
        }
        assert!(
            stale.is_empty(),
            "glsl/generated/{{{}}} differ from the Rust constants: run \
             `VKALGO_UPDATE_GLSL=1 cargo test -p vkalgo --lib shared_constants`, then \
             `cargo xtask shaders`, and commit",
            stale.join(",")
        );
        let mut present: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        present.sort();
        expected.sort();
        assert_eq!(
            present, expected,
            "glsl/generated/ holds only the generated headers"
        );
    }

    /// A name is defined once over all headers, and every value fits its GLSL type.
    #[test]
    fn names_are_unique_and_values_fit() {
        let mut names = std::collections::HashSet::new();
        for header in headers() {
            for c in header.constants {
                assert!(names.insert(c.name), "{} is defined twice", c.name);
                match c.ty {
                    GlslType::Uint => assert!(c.value <= u32::MAX as u64, "{}", c.name),
                    GlslType::Int => assert!(c.value <= i32::MAX as u64, "{}", c.name),
                    GlslType::Uint64 => {}
                }
            }
        }
    }
}
