//! Shared helpers of the integration tests: a context on whatever Vulkan device exists
//! (lavapipe in CI), with the validation layer on, and deterministic adversarial data.
#![allow(dead_code)]

use vkalgo::{Context, ContextOptions};

/// A context with Khronos validation + synchronization validation, unless
/// `VKALGO_TEST_NO_VALIDATION=1` (for machines without the layer, e.g. the GPU box).
pub fn context() -> Context {
    let _ = env_logger_init();
    let mut options = ContextOptions::from_env();
    options.validation = std::env::var("VKALGO_TEST_NO_VALIDATION").map_or(true, |v| v != "1");
    options.timeout = std::time::Duration::from_secs(300);
    Context::with_options(&options).expect("a Vulkan device (lavapipe in CI) with the validation layer")
}

/// Context with an explicit look-back policy.
pub fn context_with_lookback(lookback: bool) -> Context {
    let mut options = ContextOptions::from_env();
    options.validation = std::env::var("VKALGO_TEST_NO_VALIDATION").map_or(true, |v| v != "1");
    options.lookback = Some(lookback);
    options.timeout = std::time::Duration::from_secs(300);
    Context::with_options(&options).expect("a Vulkan device")
}

fn env_logger_init() -> Option<()> {
    None
}

/// Fails the test if the validation layer reported anything.
pub fn assert_no_validation_messages(ctx: &Context) {
    let n = ctx.validation_message_count();
    assert_eq!(n, 0, "validation messages: {:#?}", ctx.validation_messages());
}

/// A small, fast, deterministic generator (SplitMix64).
pub struct Rng(pub u64);

impl Rng {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    pub fn next_u32(&mut self) -> u32 {
        (self.next_u64() >> 32) as u32
    }
    pub fn vec_u32(&mut self, n: usize) -> Vec<u32> {
        (0..n).map(|_| self.next_u32()).collect()
    }
}
