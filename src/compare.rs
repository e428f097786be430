//! Strategies against perfect play: each strategy plays every deal of a range, the solver
//! decides the same deals (or its earlier verdicts are read back), and the results are paired
//! deal by deal. Every strategy win is replayed by the independent checker before it counts,
//! and a strategy win on a deal the solver proved lost stops the run: one of them is wrong.

use crate::batch::{progress_bar, read_jsonl, JsonlHeader};
use crate::deal::DealId;
use crate::game::OptionValues;
use crate::games::GameEntry;
use crate::solver::{Budget, Order, Verdict};
use crate::stats::{wilson, Summary};
use crate::strategy::{Ending, StrategyKind};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::path::Path;

/// Where the solver's verdicts come from.
pub enum SolverVerdicts {
    /// Solve each deal now.
    Solve { order: Order, budget: Budget },
    /// Verdicts found earlier (a `--jsonl` file or a results summary), by deal.
    Known(HashMap<DealId, Verdict>),
}

pub struct Comparison<'a> {
    pub game: &'static dyn GameEntry,
    pub options: &'a OptionValues,
    pub deals: Vec<DealId>,
    pub strategies: Vec<StrategyKind>,
    pub solver: SolverVerdicts,
    pub progress: bool,
}

/// One deal: the solver's verdict and whether each strategy won.
struct Paired {
    solver: Verdict,
    wins: Vec<bool>,
}

/// A comparison's result. Field names are a contract read by scripts: keep them stable.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Report {
    pub game: String,
    pub variant: String,
    pub first_deal: DealId,
    pub last_deal: DealId,
    pub deals: u64,
    pub solver: SolverTally,
    /// Deals known to be winnable: the solver won them, or a strategy did (replayed).
    pub winnable: u64,
    pub strategies: Vec<StrategyTally>,
    /// Each pair of strategies on the same deals.
    pub pairs: Vec<PairTally>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SolverTally {
    pub won: u64,
    pub lost: u64,
    pub unknown: u64,
    /// Winnable deals over all deals; `ci95` brackets the deals neither the solver nor any
    /// strategy decided (low end: all lost; high end: all won).
    pub win_rate: f64,
    pub ci95: [f64; 2],
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StrategyTally {
    pub name: String,
    pub won: u64,
    pub win_rate: f64,
    pub ci95: [f64; 2],
    /// Wins over the deals known to be winnable.
    pub share_of_winnable: f64,
}

/// McNemar's exact test on the deals where exactly one of two strategies won.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PairTally {
    pub a: String,
    pub b: String,
    pub only_a: u64,
    pub only_b: u64,
    /// Two-sided: the chance of a split at least this uneven if both played equally well.
    pub p_value: f64,
    /// `p_value` below 0.05.
    pub significant: bool,
}

impl Comparison<'_> {
    pub fn run(&self) -> Result<Report, String> {
        let (Some(first), Some(last)) = (self.deals.first(), self.deals.last()) else {
            return Err("there are no deals to compare".to_string());
        };
        if let SolverVerdicts::Known(known) = &self.solver {
            if let Some(missing) = self.deals.iter().find(|d| !known.contains_key(d)) {
                return Err(format!(
                    "the solver results hold no verdict for {missing}: solve that range first \
                     (patience stats ... --jsonl FILE), or leave out --solver-results"
                ));
            }
        }
        let bar = progress_bar(self.deals.len(), self.progress);
        let paired: Result<Vec<Paired>, String> = self
            .deals
            .par_iter()
            .map(|deal| {
                let outcome = self.pair(deal);
                bar.inc(1);
                outcome
            })
            .collect();
        bar.finish_and_clear();
        Ok(self.report(first, last, &paired?))
    }

    fn pair(&self, deal: &DealId) -> Result<Paired, String> {
        let cards = deal.cards(self.game.packs())?;
        let mut wins = Vec::with_capacity(self.strategies.len());
        for &kind in &self.strategies {
            let played = self
                .game
                .play(self.options, &cards, kind, deal.number().unwrap_or(0))?;
            let won = played.ending == Ending::Won;
            if won {
                let replay = self.game.replay(self.options, &cards, &played.moves)?;
                if !replay.is_won() {
                    return Err(format!(
                        "{}'s win on {deal} does not replay ({replay}): a bug, please report it",
                        kind.name()
                    ));
                }
            }
            wins.push(won);
        }
        let solver = match &self.solver {
            SolverVerdicts::Known(known) => known[deal],
            SolverVerdicts::Solve { order, budget } => {
                self.game
                    .solve(self.options, &cards, *order, *budget)?
                    .verdict
            }
        };
        if solver == Verdict::Lost {
            if let Some(i) = wins.iter().position(|&w| w) {
                return Err(format!(
                    "{} won {deal}, which the solver proved lost: one of them is wrong, \
                     please report it",
                    self.strategies[i].name()
                ));
            }
        }
        Ok(Paired { solver, wins })
    }

    fn report(&self, first: &DealId, last: &DealId, paired: &[Paired]) -> Report {
        let deals = paired.len() as u64;
        let count = |v: Verdict| paired.iter().filter(|p| p.solver == v).count() as u64;
        let winnable = paired
            .iter()
            .filter(|p| p.solver == Verdict::Won || p.wins.contains(&true))
            .count() as u64;
        let lost = count(Verdict::Lost);
        let undecided = deals - winnable - lost;
        let wins_of = |i: usize| paired.iter().filter(|p| p.wins[i]).count() as u64;
        let strategies = self
            .strategies
            .iter()
            .enumerate()
            .map(|(i, kind)| {
                let won = wins_of(i);
                let (low, high) = wilson(won, deals);
                StrategyTally {
                    name: kind.name().to_string(),
                    won,
                    win_rate: won as f64 / deals as f64,
                    ci95: [low, high],
                    share_of_winnable: won as f64 / winnable.max(1) as f64,
                }
            })
            .collect();
        let mut pairs = Vec::new();
        for a in 0..self.strategies.len() {
            for b in a + 1..self.strategies.len() {
                let only = |x: usize, y: usize| {
                    paired.iter().filter(|p| p.wins[x] && !p.wins[y]).count() as u64
                };
                let (only_a, only_b) = (only(a, b), only(b, a));
                let p_value = mcnemar_exact(only_a, only_b);
                pairs.push(PairTally {
                    a: self.strategies[a].name().to_string(),
                    b: self.strategies[b].name().to_string(),
                    only_a,
                    only_b,
                    p_value,
                    significant: p_value < 0.05,
                });
            }
        }
        Report {
            game: self.game.name().to_string(),
            variant: self.options.variant_name(self.game.options()),
            first_deal: first.clone(),
            last_deal: last.clone(),
            deals,
            solver: SolverTally {
                won: count(Verdict::Won),
                lost,
                unknown: count(Verdict::Unknown),
                win_rate: winnable as f64 / deals as f64,
                ci95: [
                    wilson(winnable, deals).0,
                    wilson(winnable + undecided, deals).1,
                ],
            },
            winnable,
            strategies,
            pairs,
        }
    }
}

/// The exact two-sided McNemar test: with `b + c` discordant deals, the chance under equal
/// play (each split equally likely either way) of a split at least as uneven as `b` to `c`.
pub fn mcnemar_exact(b: u64, c: u64) -> f64 {
    let n = b + c;
    if n == 0 {
        return 1.0;
    }
    // Twice the lower tail of Binomial(n, 1/2) at min(b, c), summed in logarithms so that
    // large counts neither overflow nor underflow before the end.
    let k = b.min(c);
    let mut log_term = -(n as f64) * std::f64::consts::LN_2; // log C(n, 0) / 2^n
    let mut log_sum = log_term;
    for i in 0..k {
        log_term += ((n - i) as f64).ln() - ((i + 1) as f64).ln();
        let (high, low) = if log_sum > log_term {
            (log_sum, log_term)
        } else {
            (log_term, log_sum)
        };
        log_sum = high + (low - high).exp().ln_1p();
    }
    (2.0 * log_sum.exp()).min(1.0)
}

/// Reads the solver's verdicts for `header`'s game and variant from a `--jsonl` file or a
/// results summary (`stats --json`).
pub fn read_verdicts(
    path: &Path,
    header: &JsonlHeader,
) -> Result<HashMap<DealId, Verdict>, String> {
    let shown = path.display();
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {shown}: {e}"))?;
    let (found, verdicts) = match serde_json::from_str::<Summary>(&text) {
        Ok(summary) => {
            if summary.first_deal.number().is_none() {
                return Err(format!(
                    "{shown} summarises a written deal, not a range of numbered deals"
                ));
            }
            let verdicts = summary
                .verdicts
                .chars()
                .enumerate()
                .map(|(i, letter)| {
                    Verdict::from_letter(letter)
                        .map(|v| (summary.deal_at(i), v))
                        .ok_or_else(|| format!("{shown} has a verdict '{letter}'"))
                })
                .collect::<Result<HashMap<_, _>, _>>()?;
            let found = JsonlHeader {
                game: summary.game,
                variant: summary.variant,
            };
            (found, verdicts)
        }
        Err(_) => {
            let (found, records, _) = read_jsonl(path).map_err(|e| {
                format!("{e} (--solver-results takes a --jsonl file or a stats --json summary)")
            })?;
            let mut verdicts = HashMap::new();
            for record in records {
                let entry = verdicts.entry(record.deal).or_insert(record.verdict);
                if *entry == Verdict::Unknown {
                    *entry = record.verdict;
                }
            }
            (found, verdicts)
        }
    };
    if found != *header {
        return Err(format!(
            "{shown} holds {} ({}), not {} ({})",
            found.game, found.variant, header.game, header.variant
        ));
    }
    Ok(verdicts)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mcnemar_matches_worked_values() {
        // 9 against 1: 2 * (1 + 10) / 1024.
        assert!((mcnemar_exact(9, 1) - 22.0 / 1024.0).abs() < 1e-12);
        assert!((mcnemar_exact(1, 9) - 22.0 / 1024.0).abs() < 1e-12);
        assert_eq!(mcnemar_exact(5, 5), 1.0);
        assert_eq!(mcnemar_exact(0, 0), 1.0);
        // Large and lopsided: tiny but not zero, and no overflow.
        let p = mcnemar_exact(6_000, 4_000);
        assert!(p > 0.0 && p < 1e-50, "{p}");
        assert_eq!(mcnemar_exact(60_000, 40_000), 0.0);
    }
}
