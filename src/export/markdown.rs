use super::{format_bytes, format_percent, format_seconds, Exporter};
use crate::compare::Report;
use crate::solver::Order;
use crate::stats::{PassTally, Summary};

/// Rows for the README's results table.
pub struct Markdown;

impl Exporter<Summary> for Markdown {
    fn render(&self, summaries: &[Summary]) -> String {
        let mut out = String::from(
            "| game | variant | deals | won | lost | unknown | win rate | 95% interval | nodes median / p99 | time median / p99 | CPU time | largest search |\n\
             |---|---|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|\n",
        );
        for s in summaries {
            // Percentiles of a summary with retried deals entered are of the records before them.
            let mark = if s.retried > 0 { " †" } else { "" };
            out += &format!(
                "| {} | {} | {} | {} | {} | {} | {} | {} – {} | {} / {}{mark} | {} / {}{mark} | {} | {} |\n",
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
        if summaries.iter().any(|s| s.retried > 0) {
            out += "\n† Medians and p99s of the per-deal records before the deals they left unknown were retried (`patience merge --onto`); the counts, rates, CPU time and largest search include the retries.\n";
        }
        out
    }
}

/// Rows for the README's strategies table: each strategy's win rate beside perfect play's.
impl Exporter<Report> for Markdown {
    fn render(&self, reports: &[Report]) -> String {
        let mut out = String::from(
            "| game | variant | deals | perfect play (winnable) | undecided | strategy | win rate | 95% interval | of the winnable |\n\
             |---|---|---:|---:|---:|---|---:|---|---:|\n",
        );
        for r in reports {
            let undecided = r.deals - r.winnable - r.solver.lost;
            for t in &r.strategies {
                out += &format!(
                    "| {} | {} | {} | {} | {} | {} | {} | {} – {} | {} |\n",
                    r.game,
                    r.variant,
                    r.deals,
                    format_percent(r.solver.win_rate),
                    undecided,
                    t.name,
                    format_percent(t.win_rate),
                    format_percent(t.ci95[0]),
                    format_percent(t.ci95[1]),
                    format_percent(t.share_of_winnable)
                );
            }
        }
        out
    }
}

/// A `--jsonl` file's passes, in the order each began: what each searched and what it decided.
/// Records from before budgets were kept show "unrecorded" (their passes of one order and
/// width then share a row).
impl Exporter<PassTally> for Markdown {
    fn render(&self, passes: &[PassTally]) -> String {
        let mut out = String::from(
            "| pass | search | first width | node budget | deals | won | lost | unknown | won of the deals | CPU time |\n\
             |---:|---|---:|---:|---:|---:|---:|---:|---:|---:|\n",
        );
        for (i, pass) in passes.iter().enumerate() {
            let searched = pass.searched;
            let search = searched
                .search
                .map_or("unrecorded".to_string(), Order::name);
            let mut width = match (searched.beam_width, searched.search) {
                (Some(width), _) => width.to_string(),
                (None, Some(order)) if order.beam_heuristic().is_some() => "8".to_string(),
                (None, Some(Order::Rollout)) => searched
                    .rollout_level
                    .map_or("level unrecorded".to_string(), |level| {
                        format!("level {level}")
                    }),
                (None, _) => "—".to_string(),
            };
            if let Some(salt) = searched.beam_salt {
                width += &format!(", salt {salt}");
            }
            if let Some(widest) = searched.max_beam_width {
                width += &format!(", widest {widest}");
            }
            let budget = searched
                .max_nodes
                .map_or("unrecorded".to_string(), |n| n.to_string());
            out += &format!(
                "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
                i + 1,
                search,
                width,
                budget,
                pass.deals,
                pass.won,
                pass.lost,
                pass.unknown,
                format_percent(pass.won as f64 / pass.deals as f64),
                format_seconds(pass.cpu_seconds)
            );
        }
        out
    }
}
