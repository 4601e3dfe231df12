//! The small-N path (glsl/sort/small.comp): one workgroup, every pass, one dispatch.

use super::{Pass, SortPush};
use crate::error::Result;

/// One dispatch of one workgroup.
pub(super) fn record(pass: &Pass, push: SortPush) -> Result<()> {
    let kernel = pass.ctx.kernel(pass.shader("small")?, pass.spec)?;
    unsafe { pass.dispatch(kernel, &push, 1) };
    Ok(())
}
