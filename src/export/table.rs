use super::{format_bytes, format_p_value, format_percent, format_seconds, Exporter};
use crate::compare::Report;
use crate::stats::Summary;
use std::fmt::Write;

/// The summary for a terminal.
pub struct Table;

impl Exporter<Summary> for Table {
    fn render(&self, summaries: &[Summary]) -> String {
        let mut out = String::new();
        for s in summaries {
            let last = s.first_deal.number().unwrap_or(0) + (s.deals - 1) * s.deal_step;
            let step = if s.deal_step > 1 {
                format!(" step {}", s.deal_step)
            } else {
                String::new()
            };
            let _ = writeln!(
                out,
                "{} ({}), {} to {last}{step}",
                s.game, s.variant, s.first_deal
            );
            let _ = writeln!(out, "  deals      {:>10}", s.deals);
            let _ = writeln!(out, "  won        {:>10}", s.won);
            let _ = writeln!(out, "  lost       {:>10}", s.lost);
            let _ = writeln!(out, "  unknown    {:>10}", s.unknown);
            let _ = writeln!(
                out,
                "  win rate   {:>10}   95% interval {} to {}",
                format_percent(s.win_rate),
                format_percent(s.ci95[0]),
                format_percent(s.ci95[1])
            );
            let _ = writeln!(
                out,
                "  nodes      median {}, p99 {}, max {}",
                s.nodes.median, s.nodes.p99, s.nodes.max
            );
            let _ = writeln!(
                out,
                "  time       median {}, p99 {}, max {}; {} of search in all",
                format_seconds(s.seconds.median),
                format_seconds(s.seconds.p99),
                format_seconds(s.seconds.max),
                format_seconds(s.cpu_seconds)
            );
            let rate = s.deals as f64 / s.cpu_seconds.max(1e-9);
            // Three significant figures at most: slow games run under one deal a second.
            let decimals = if rate >= 100.0 {
                0
            } else if rate >= 10.0 {
                1
            } else {
                2
            };
            let _ = writeln!(
                out,
                "  speed      {rate:.decimals$} deals per CPU-second; largest search {}",
                format_bytes(s.peak_bytes)
            );
            let hardest: Vec<String> = s
                .hardest
                .iter()
                .map(|r| {
                    let mut named = format!("{} ({} nodes, {:?}", r.deal, r.nodes, r.verdict);
                    match s.verdict_of(&r.deal) {
                        Some(v) if v != r.verdict => {
                            named += &format!("; {v:?} by another search)")
                        }
                        _ => named += ")",
                    }
                    named.to_lowercase()
                })
                .collect();
            if !hardest.is_empty() {
                let _ = writeln!(out, "  hardest    {}", hardest.join(", "));
            }
            if s.retried > 0 {
                let _ = writeln!(
                    out,
                    "  retried    {} records or verdicts entered onto the summary (merge --onto, stats --unknown-in): medians and p99s are of the records before them",
                    s.retried
                );
            }
        }
        out
    }
}

/// A comparison for a terminal: the solver, each strategy, and each pair's test.
impl Exporter<Report> for Table {
    fn render(&self, reports: &[Report]) -> String {
        let mut out = String::new();
        for r in reports {
            let s = &r.solver;
            let _ = writeln!(
                out,
                "{} ({}), {} to {}: {} deals",
                r.game, r.variant, r.first_deal, r.last_deal, r.deals
            );
            let _ = writeln!(
                out,
                "  solver     won {}, lost {}, unknown {}; winnable {} ({}, 95% interval {} to {})",
                s.won,
                s.lost,
                s.unknown,
                r.winnable,
                format_percent(s.win_rate),
                format_percent(s.ci95[0]),
                format_percent(s.ci95[1])
            );
            for t in &r.strategies {
                let _ = writeln!(
                    out,
                    "  {:<10} won {:>8}   {:>9}   95% interval {} to {}   {} of the winnable",
                    t.name,
                    t.won,
                    format_percent(t.win_rate),
                    format_percent(t.ci95[0]),
                    format_percent(t.ci95[1]),
                    format_percent(t.share_of_winnable)
                );
            }
            for p in &r.pairs {
                let verdict = if p.significant {
                    "a real difference"
                } else {
                    "no significant difference"
                };
                let _ = writeln!(
                    out,
                    "  {} vs {}: only {} won {}, only {} won {}; McNemar p {}: {verdict}",
                    p.a,
                    p.b,
                    p.a,
                    p.only_a,
                    p.b,
                    p.only_b,
                    format_p_value(p.p_value)
                );
            }
        }
        out
    }
}
