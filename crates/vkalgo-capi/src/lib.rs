//! vkalgo's C library (`libvkalgo.so` / `.dylib` / `.dll` and `libvkalgo.a` / `vkalgo.lib`):
//! the C ABI of `vkalgo-ffi` linked into a shared and a static library. Its header is
//! `include/vkalgo.h`; the root CMake project builds and installs both libraries.

pub use vkalgo_ffi::*;
