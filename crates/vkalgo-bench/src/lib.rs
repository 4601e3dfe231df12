//! vkalgo's benchmark harness and the support of its large-count checks (the library half of
//! the `vkalgo-bench` crate; the binary, `src/main.rs`, holds one benchmark per algorithm, and
//! `tests/large_*.rs` the checks of counts past 2^31).

pub mod harness;
pub mod large;
