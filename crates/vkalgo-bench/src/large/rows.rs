//! The rows of the checks' final table and their verdicts.

/// One row of the final table.
pub struct Row {
    pub what: String,
    pub n: u64,
    pub ms: Option<f64>,
    pub timing: &'static str,
    pub verdict: Verdict,
}

pub enum Verdict {
    Exact,
    Wrong(String),
    Refused(String),
}

impl Row {
    /// A check that ran through the record layer and was timed on the GPU after a warm-up
    /// (`wrong`: what differed from the CPU, if anything).
    pub fn gpu(what: &str, n: u64, ms: f64, wrong: Option<String>) -> Row {
        Row {
            what: format!("{what} (record layer)"),
            n,
            ms: Some(ms),
            timing: "GPU, warm",
            verdict: wrong.map_or(Verdict::Exact, Verdict::Wrong),
        }
    }

    /// A check that could not run (`why`: the device refused memory or the plan).
    pub fn refused(what: &str, n: u64, why: &str) -> Row {
        Row {
            what: what.into(),
            n,
            ms: None,
            timing: "-",
            verdict: Verdict::Refused(why.into()),
        }
    }
}

/// Says what download_compare found wrong: the first wrong `part` (key, value, ...).
pub fn wrong_at(part: &'static str) -> impl Fn((u64, u32, u32)) -> String {
    move |(p, got, want)| format!("first wrong {part} at {p}: got {got} want {want}")
}

impl Verdict {
    /// The verdict as the table prints it.
    pub fn text(&self) -> String {
        match self {
            Verdict::Exact => "yes (exact)".into(),
            Verdict::Wrong(m) => format!("NO: {m}"),
            Verdict::Refused(m) => format!("not run: {m}"),
        }
    }
}

/// Prints the rows as a table, each also as a tab-separated `RESULT\tlarge` line.
pub(super) fn print_rows(rows: &[Row]) {
    println!();
    println!(
        "{:<60} {:>14} {:>10} {:<10} verified",
        "what", "N", "ms", "timing"
    );
    for r in rows {
        let ms = r.ms.map_or("-".to_string(), |m| format!("{m:.2}"));
        println!(
            "{:<60} {:>14} {:>10} {:<10} {}",
            r.what,
            r.n,
            ms,
            r.timing,
            r.verdict.text()
        );
        println!(
            "RESULT\tlarge\t{}\t{}\t{ms}\t{}",
            r.what,
            r.n,
            match r.verdict {
                Verdict::Exact => "exact",
                Verdict::Wrong(_) => "WRONG",
                Verdict::Refused(_) => "refused",
            }
        );
    }
}
