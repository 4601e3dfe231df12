//! First-use latency with and without a saved pipeline cache: `vkalgo-bench cache`.
//!
//! In one process: a context without cache data creates the pipelines of a scan plan, a
//! u32 -> u32 sort plan and then `warm_up` of every algorithm (timed on the host: pipeline
//! creation is host work); its cache data is kept; a second context made from that data does
//! the same. Run it with the driver's own disk cache off (`__GL_SHADER_DISK_CACHE=0` on
//! NVIDIA) so that "without" means compiled.

use std::time::Instant;
use vkalgo::{Algorithm, Context, ContextOptions, KeyType, Result, ScanDesc, ScanOp, SortDesc, ValueType};
use vkalgo_bench::harness::report;

fn timed(ctx: &Context) -> Result<(f64, f64, f64)> {
    let ms = |t: Instant| t.elapsed().as_secs_f64() * 1e3;
    let t = Instant::now();
    ctx.scan_plan(&ScanDesc::new(ScanOp::Exclusive, 1 << 24))?;
    let scan = ms(t);
    let t = Instant::now();
    ctx.sort_plan(&SortDesc::new(KeyType::U32, ValueType::U32, 1 << 24))?;
    let sort = ms(t);
    let t = Instant::now();
    ctx.warm_up(&Algorithm::ALL)?;
    let all = ms(t);
    Ok((scan, sort, all))
}

/// Runs the pipeline-cache measurement.
pub fn run(_ctx: &Context, _args: &[String]) -> Result<()> {
    let cold = Context::with_options(&ContextOptions::from_env())?;
    let (scan0, sort0, all0) = timed(&cold)?;
    let data = cold.pipeline_cache_data()?;
    drop(cold);
    let options = ContextOptions {
        pipeline_cache_data: Some(data.clone()),
        ..ContextOptions::from_env()
    };
    let warm = Context::with_options(&options)?;
    if let Some(note) = warm.pipeline_cache_note() {
        println!("cache data not used: {note}");
    }
    let (scan1, sort1, all1) = timed(&warm)?;
    let table = report::table(
        &format!("pipeline creation, host ms (cache data: {} bytes)", data.len()),
        &["what", "without saved cache", "with saved cache"],
    );
    for (what, without, with) in [
        ("first scan plan", scan0, scan1),
        ("first u32 -> u32 sort plan", sort0, sort1),
        ("warm_up(every algorithm), after those", all0, all1),
    ] {
        table.row(&[what.into(), format!("{without:.1}"), format!("{with:.1}")]);
    }
    Ok(())
}
