//! Build script of the C library: names the shared library for the platform's loader.

fn main() {
    let version = |part: &str| -> u32 {
        std::env::var(format!("CARGO_PKG_VERSION_{part}"))
            .unwrap()
            .parse()
            .unwrap()
    };
    name_shared_library(version("MAJOR"), version("MINOR"), version("PATCH"));
}

/// The name a program linked against the shared library records, by the compatibility
/// promise: before 1.0 every minor version may break the ABI (`libvkalgo.so.0.1`), from 1.0
/// every major version (`libvkalgo.so.1`). Windows has none: the import library names the DLL.
fn name_shared_library(major: u32, minor: u32, patch: u32) {
    let abi = if major == 0 {
        format!("0.{minor}")
    } else {
        major.to_string()
    };
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let family = std::env::var("CARGO_CFG_TARGET_FAMILY").unwrap_or_default();
    if os == "macos" || os == "ios" {
        println!("cargo:rustc-cdylib-link-arg=-Wl,-install_name,@rpath/libvkalgo.{abi}.dylib");
        println!("cargo:rustc-cdylib-link-arg=-Wl,-current_version,{major}.{minor}.{patch}");
        let compatibility = if major == 0 {
            format!("0.{minor}.0")
        } else {
            format!("{major}.0.0")
        };
        println!("cargo:rustc-cdylib-link-arg=-Wl,-compatibility_version,{compatibility}");
    } else if family == "unix" {
        println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libvkalgo.so.{abi}");
    }
}
