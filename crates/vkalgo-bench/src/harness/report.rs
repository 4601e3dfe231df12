//! What a run reports: Markdown tables (printed as they fill, and kept for the device page of
//! `--markdown`) and `RESULT` records (printed as tab-separated lines for bench/compare.py,
//! and kept for `--csv`).

use std::fmt::Write as _;
use std::sync::Mutex;

/// One measurement, as bench/compare.py reads it:
/// `RESULT <impl> <algo> <variant> <N> <median ms> <rate> <extra>`.
pub struct Record {
    pub algo: String,
    pub variant: String,
    pub n: u64,
    pub ms: f64,
    /// G elements/s for algorithms, GB/s for copies.
    pub rate: f64,
    pub extra: String,
}

struct Page {
    /// Markdown of the tables and notes, in order.
    body: String,
    records: Vec<Record>,
}

static PAGE: Mutex<Page> = Mutex::new(Page {
    body: String::new(),
    records: Vec::new(),
});

/// Prints `text` and keeps it for the page.
pub fn note(text: &str) {
    println!("{text}");
    let mut page = PAGE.lock().unwrap();
    let _ = writeln!(page.body, "{text}\n");
}

/// A Markdown table: its title and columns, declared once; rows print as they come.
pub struct Table {
    columns: usize,
}

/// Starts a table: prints (and keeps) a blank line, the title, the header row and the rule.
pub fn table(title: &str, columns: &[&str]) -> Table {
    let header = format!("| {} |", columns.join(" | "));
    let rule = format!("|{}", "---|".repeat(columns.len()));
    println!("\n{title}\n{header}\n{rule}");
    let mut page = PAGE.lock().unwrap();
    let _ = write!(page.body, "\n{title}\n\n{header}\n{rule}\n");
    Table {
        columns: columns.len(),
    }
}

/// Starts a table whose header is written as it prints (`"a | b | c"`): see [`table`].
pub fn table_of(title: &str, header: &str) -> Table {
    table(title, &header.split(" | ").collect::<Vec<_>>())
}

impl Table {
    /// A row of cells (fewer than the columns for a row that says why a case was skipped).
    pub fn row(&self, cells: &[String]) {
        debug_assert!(cells.len() <= self.columns);
        self.line(&format!("| {} |", cells.join(" | ")));
    }

    /// A row written whole (`| a | b |`).
    pub fn line(&self, text: &str) {
        line(text);
    }

    /// The row of a case that could not run: its first cells, then `skipped: why`.
    pub fn skip(&self, cells: &[String], why: impl std::fmt::Display) {
        let mut cells = cells.to_vec();
        cells.push(format!("skipped: {why}"));
        self.line(&format!("| {} |", cells.join(" | ")));
    }

    /// `made`'s value, or `None` after a row saying why the case was skipped ([`Table::skip`]).
    pub fn or_skip<T>(&self, made: vkalgo::Result<T>, cells: &[String]) -> Option<T> {
        made.map_err(|e| self.skip(cells, e)).ok()
    }
}

/// Prints a row written whole (`| a | b |`) under the last table started, and keeps it.
pub fn line(text: &str) {
    println!("{text}");
    let mut page = PAGE.lock().unwrap();
    let _ = writeln!(page.body, "{text}");
}

/// Prints one measurement as a `RESULT` line (impl `vkalgo`) and keeps it for `--csv`.
pub fn result(algo: &str, variant: &str, n: u64, ms: f64, rate: f64, extra: &str) {
    println!("RESULT\tvkalgo\t{algo}\t{variant}\t{n}\t{ms:.6}\t{rate:.4}\t{extra}");
    PAGE.lock().unwrap().records.push(Record {
        algo: algo.into(),
        variant: variant.into(),
        n,
        ms,
        rate,
        extra: extra.into(),
    });
}

/// G elements per second of `n` elements in `ms` milliseconds.
pub fn rate(n: u64, ms: f64) -> f64 {
    n as f64 / (ms * 1e-3) / 1e9
}

/// GB/s of `bytes` bytes moved in `ms` milliseconds.
pub fn gbs(bytes: f64, ms: f64) -> f64 {
    bytes / (ms * 1e-3) / 1e9
}

/// The device page (`--markdown`): `heading` (device, driver, command), every table and note of
/// the run, then every record as one table.
pub fn markdown(heading: &str) -> String {
    let page = PAGE.lock().unwrap();
    let mut out = format!("{heading}\n{}\n## Every measurement\n\n", page.body);
    out += "| algo | variant | N | ms | rate | extra |\n|---|---|---:|---:|---:|---|\n";
    for r in &page.records {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {:.4} | {:.3} | {} |",
            r.algo, r.variant, r.n, r.ms, r.rate, r.extra
        );
    }
    out
}

/// Every record as CSV (`--csv`), with the columns of the `RESULT` lines.
pub fn csv() -> String {
    let page = PAGE.lock().unwrap();
    let mut out = "impl,algo,variant,n,ms,rate,extra\n".to_string();
    for r in &page.records {
        let _ = writeln!(
            out,
            "vkalgo,{},{},{},{:.6},{:.4},\"{}\"",
            r.algo,
            r.variant,
            r.n,
            r.ms,
            r.rate,
            r.extra.replace('"', "\"\"")
        );
    }
    out
}

/// Today's date in UTC as `YYYY-MM-DD` (the device page's date line).
pub fn utc_date() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    // Days since 1970-01-01 to a proleptic Gregorian date, in 400-year eras of 146097 days.
    let z = (secs / 86_400) as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}
