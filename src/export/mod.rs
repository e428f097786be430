//! Writers for batch summaries and strategy comparisons, one per format behind one trait, and the atomic file write
//! that keeps a half-written result from ever standing under its final name.

mod json;
mod markdown;
mod table;

pub use json::Json;
pub use markdown::Markdown;
pub use table::Table;

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

/// A writer of one format, for batch summaries and for strategy comparisons.
pub trait Exporter<T> {
    fn render(&self, items: &[T]) -> String;
}

fn temporary_name(path: &Path) -> PathBuf {
    let mut name = path
        .file_name()
        .map(|n| n.to_os_string())
        .unwrap_or_default();
    name.push(format!(".partial-{}", std::process::id()));
    path.with_file_name(name)
}

/// Checks, before any work, that `path` can be written: a long batch must not find out at its
/// end that its summary has nowhere to go.
pub fn check_writable(path: &Path) -> Result<(), String> {
    let probe = temporary_name(path);
    fs::File::create(&probe).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    let _ = fs::remove_file(&probe);
    Ok(())
}

/// Writes `contents` to a temporary file beside `path`, then renames it into place.
pub fn write_atomic(path: &Path, contents: &str) -> Result<(), String> {
    let temporary = temporary_name(path);
    let written = (|| {
        let mut file = fs::File::create(&temporary)?;
        file.write_all(contents.as_bytes())?;
        file.sync_all()?;
        fs::rename(&temporary, path)
    })();
    written.map_err(|e| {
        let _ = fs::remove_file(&temporary);
        format!("cannot write {}: {e}", path.display())
    })
}

/// A duration for people: microseconds to hours.
pub fn format_seconds(seconds: f64) -> String {
    if seconds < 1e-3 {
        format!("{:.0} µs", seconds * 1e6)
    } else if seconds < 1.0 {
        format!("{:.1} ms", seconds * 1e3)
    } else if seconds < 120.0 {
        format!("{seconds:.2} s")
    } else {
        format!("{:.1} min", seconds / 60.0)
    }
}

/// A p-value for people; one too small for a double reads as such.
pub fn format_p_value(p: f64) -> String {
    if p == 0.0 {
        "< 1e-300".to_string()
    } else if p < 0.001 {
        format!("{p:.1e}")
    } else {
        format!("{p:.3}")
    }
}

/// A byte count for people.
pub fn format_bytes(bytes: u64) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{bytes} B")
    } else {
        format!("{value:.1} {}", UNITS[unit])
    }
}

/// A rate as a percentage with enough places for a million deals.
/// A rate as a percentage with three decimals, or more when three would round a rate short of
/// 100% up to 100%, or a rate above 0% down to 0%.
pub fn format_percent(rate: f64) -> String {
    let shown = |decimals: usize| format!("{:.*}", decimals, rate * 100.0);
    let mut decimals = 3;
    while decimals < 8 {
        let value: f64 = shown(decimals).parse().expect("a number");
        let looks_exact = (rate < 1.0 && value == 100.0) || (rate > 0.0 && value == 0.0);
        if !looks_exact {
            break;
        }
        decimals += 1;
    }
    format!("{}%", shown(decimals))
}

#[cfg(test)]
mod tests {
    use super::format_percent;

    #[test]
    fn percentages_never_round_to_look_exact() {
        assert_eq!(format_percent(0.5), "50.000%");
        assert_eq!(format_percent(1.0), "100.000%");
        assert_eq!(format_percent(0.0), "0.000%");
        assert_eq!(format_percent(0.999996), "99.9996%");
        assert_eq!(format_percent(0.000004), "0.0004%");
    }
}
