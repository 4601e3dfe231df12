//! The one option parser: each benchmark declares its axes as data ([`Axis`]: name, default
//! on GPUs and on CPU devices, help) and reads the parsed values by name.

use std::collections::HashMap;
use std::str::FromStr;
use vkalgo::Context;

/// One option of a benchmark, declared as data. `gpu` and `cpu` are the defaults as they would
/// be typed (`cpu` of `None`: the GPU default everywhere); a flag has the default [`FLAG`].
pub struct Axis {
    pub name: &'static str,
    pub gpu: &'static str,
    pub cpu: Option<&'static str>,
    pub help: &'static str,
}

/// The default of a flag (an option without a value, off unless given).
pub const FLAG: &str = "<flag>";

/// An axis with one default for every device.
pub const fn axis(name: &'static str, default: &'static str, help: &'static str) -> Axis {
    Axis {
        name,
        gpu: default,
        cpu: None,
        help,
    }
}

/// An axis whose default differs on CPU devices (smaller sizes, fewer repetitions).
pub const fn sized(name: &'static str, gpu: &'static str, cpu: &'static str, help: &'static str) -> Axis {
    Axis {
        name,
        gpu,
        cpu: Some(cpu),
        help,
    }
}

/// A flag: off unless given.
pub const fn flag(name: &'static str, help: &'static str) -> Axis {
    axis(name, FLAG, help)
}

/// The parsed options of one benchmark: every declared axis has a value (given or default).
pub struct Options {
    values: HashMap<&'static str, String>,
}

impl Options {
    /// Parses `args` against `axes` (`--name value`, `--flag`); an unknown option or `--help`
    /// prints the axes and exits (status 2 for an unknown option).
    pub fn parse(ctx: &Context, algorithm: &str, axes: &[Axis], args: &[String]) -> Options {
        let cpu = ctx.is_cpu_device();
        let mut values: HashMap<&'static str, String> = axes
            .iter()
            .map(|a| {
                let default = if cpu { a.cpu.unwrap_or(a.gpu) } else { a.gpu };
                (
                    a.name,
                    if default == FLAG {
                        String::new()
                    } else {
                        default.to_string()
                    },
                )
            })
            .collect();
        let mut i = 0;
        while i < args.len() {
            let name = args[i].strip_prefix("--").unwrap_or("");
            let Some(axis) = axes.iter().find(|a| a.name == name) else {
                usage(algorithm, axes, &args[i]);
            };
            if axis.gpu == FLAG {
                values.insert(axis.name, "on".into());
                i += 1;
            } else {
                values.insert(axis.name, args.get(i + 1).cloned().unwrap_or_default());
                i += 2;
            }
        }
        Options { values }
    }

    /// The text of axis `name` (as given, or its default).
    pub fn text(&self, name: &str) -> &str {
        self.values
            .get(name)
            .unwrap_or_else(|| panic!("no axis --{name}"))
    }

    /// Whether flag `name` was given.
    pub fn flag(&self, name: &str) -> bool {
        !self.text(name).is_empty()
    }

    /// The value of axis `name`, or `default` when it does not parse.
    pub fn get<T: FromStr>(&self, name: &str, default: T) -> T {
        self.text(name).trim().parse().unwrap_or(default)
    }

    /// The comma-separated entries of axis `name`, trimmed, empty ones left out.
    pub fn names(&self, name: &str) -> Vec<String> {
        self.text(name)
            .split(',')
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
            .collect()
    }

    /// The entries of axis `name` that parse as `T` (the others are left out).
    pub fn list<T: FromStr>(&self, name: &str) -> Vec<T> {
        self.names(name).iter().filter_map(|s| s.parse().ok()).collect()
    }

    /// The entries of axis `name` looked up in `table` (unknown names are left out).
    pub fn choices<T: Copy>(&self, name: &str, table: &[(&str, T)]) -> Vec<T> {
        self.names(name)
            .iter()
            .filter_map(|s| table.iter().find(|(n, _)| n == s).map(|&(_, v)| v))
            .collect()
    }

    /// The entries of axis `name` that parse as `T`, each as `Some`; `None` alone (the plan's or
    /// the map's own choice) when the axis is empty.
    pub fn optional<T: FromStr>(&self, name: &str) -> Vec<Option<T>> {
        let mut given: Vec<Option<T>> = self.list(name).into_iter().map(Some).collect();
        if self.text(name).is_empty() {
            given.push(None);
        }
        given
    }

    /// The `--tuning` entries ([`Options::tunings`]) that `make` turns into tunings, each as
    /// `Some`; `None` alone (the plan's own choice) when the axis is empty.
    pub fn tuning_choices<T>(
        &self,
        name: &str,
        make: impl Fn(u32, u32, &str) -> Option<T>,
    ) -> Vec<Option<T>> {
        let mut given: Vec<Option<T>> = self
            .tunings(name)
            .iter()
            .filter_map(|(wg, per, rest)| make(*wg, *per, rest).map(Some))
            .collect();
        if self.text(name).is_empty() {
            given.push(None);
        }
        given
    }

    /// `--tuning` entries such as `512x8,256x16`: (workgroup size, per-invocation count) pairs,
    /// each with what follows a `/` (empty when none); malformed entries are left out.
    pub fn tunings(&self, name: &str) -> Vec<(u32, u32, String)> {
        self.names(name)
            .iter()
            .filter_map(|t| {
                let (size, rest) = t.split_once('/').unwrap_or((t, ""));
                let (wg, per) = size.split_once('x')?;
                Some((wg.parse().ok()?, per.parse().ok()?, rest.to_string()))
            })
            .collect()
    }
}

/// Prints the axes of `algorithm` and exits (status 0 for `--help`, else 2).
fn usage(algorithm: &str, axes: &[Axis], given: &str) -> ! {
    let help = given == "--help" || given == "-h";
    if !help {
        eprintln!("unknown argument {given}");
    }
    eprintln!("vkalgo-bench {algorithm} options (default on GPUs / on CPU devices):");
    for a in axes {
        let default = match (a.gpu, a.cpu) {
            (FLAG, _) => "off".to_string(),
            (g, Some(c)) => format!("{g} / {c}"),
            (g, None) => g.to_string(),
        };
        eprintln!("  --{:<18} {} [{default}]", a.name, a.help);
    }
    std::process::exit(if help { 0 } else { 2 });
}
