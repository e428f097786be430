use super::{format_bytes, format_percent, format_seconds, Exporter};
use crate::stats::Summary;

/// Rows for the README's results table.
pub struct Markdown;

impl Exporter for Markdown {
    fn render(&self, summaries: &[Summary]) -> String {
        let mut out = String::from(
            "| game | variant | deals | won | lost | unknown | win rate | 95% interval | nodes median / p99 | time median / p99 | CPU time | largest search |\n\
             |---|---|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|\n",
        );
        for s in summaries {
            out += &format!(
                "| {} | {} | {} | {} | {} | {} | {} | {} – {} | {} / {} | {} / {} | {} | {} |\n",
                s.game,
                s.variant,
                s.deals,
                s.won,
                s.lost,
                s.unknown,
                format_percent(s.win_rate),
                format_percent(s.ci95[0]),
                format_percent(s.ci95[1]),
                s.nodes.median,
                s.nodes.p99,
                format_seconds(s.seconds.median),
                format_seconds(s.seconds.p99),
                format_seconds(s.cpu_seconds),
                format_bytes(s.peak_bytes)
            );
        }
        out
    }
}
