//! The summary of a batch of deals (the `results/*.json` contract) and its statistics.

use crate::deal::DealId;
use crate::solver::{Exhausted, Order, Verdict};
use serde::{Deserialize, Serialize};

/// One finished deal, as a line of the `--jsonl` file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DealRecord {
    pub deal: DealId,
    pub verdict: Verdict,
    pub nodes: u64,
    /// Cases put to the SAT solver (absent where none, and from older files).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub formulas: u64,
    pub seconds: f64,
    /// Bytes the search held at its largest.
    #[serde(default)]
    pub peak_bytes: u64,
    /// Why an unknown deal's search stopped (absent from older files).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<Exhausted>,
    /// How it was searched, so that `--retry-unknown` can pass over the deals already tried
    /// the same way, and `report` can tell a file's passes apart.
    #[serde(flatten)]
    pub searched: Searched,
}

/// How a deal was searched: each field absent from older files, and from records where the
/// option was not given.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Searched {
    /// The search order that gave the verdict.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub search: Option<Order>,
    /// The beam's first width, where `--beam-width` gave one: runs of other widths find other
    /// wins, so for `--retry-unknown` a beam started at another width is another search.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub beam_width: Option<usize>,
    /// The beam's salt, where `--beam-salt` gave one: each salt is another search.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub beam_salt: Option<u64>,
    /// The beam's widest run, where `--max-beam-width` gave one: a beam stopped there is
    /// another search than one that widens until the node budget is spent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_beam_width: Option<usize>,
    /// The nested rollouts' level, given or not (`--search rollout`, `adaptive-rollout`):
    /// each level is another search.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rollout_level: Option<u32>,
    /// The node budget it was searched within (`--max-nodes`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_nodes: Option<u64>,
}

impl Searched {
    /// The same search, whatever the node budget of each.
    pub fn same_but_budget(self, other: Searched) -> bool {
        let unbudgeted = |s: Searched| Searched {
            max_nodes: None,
            ..s
        };
        unbudgeted(self) == unbudgeted(other)
    }
}

/// What one pass over a `--jsonl` file's deals did: the deals it searched (a first pass, or a
/// retry of those left unknown), all searched one way.
#[derive(Clone, Debug, PartialEq)]
pub struct PassTally {
    pub searched: Searched,
    pub deals: u64,
    pub won: u64,
    pub lost: u64,
    pub unknown: u64,
    pub cpu_seconds: f64,
}

impl PassTally {
    /// The passes of a file's records, in the order each first appears.
    pub fn from_records(records: &[DealRecord]) -> Vec<PassTally> {
        let mut passes: Vec<PassTally> = Vec::new();
        for r in records {
            let at = passes.iter().position(|p| p.searched == r.searched);
            let at = at.unwrap_or_else(|| {
                passes.push(PassTally {
                    searched: r.searched,
                    deals: 0,
                    won: 0,
                    lost: 0,
                    unknown: 0,
                    cpu_seconds: 0.0,
                });
                passes.len() - 1
            });
            let pass = &mut passes[at];
            pass.deals += 1;
            match r.verdict {
                Verdict::Won => pass.won += 1,
                Verdict::Lost => pass.lost += 1,
                Verdict::Unknown => pass.unknown += 1,
            }
            pass.cpu_seconds += r.seconds;
        }
        passes
    }
}

/// What the records a later record of the same deal replaced had spent: their time summed,
/// their largest search, and their largest records, one a deal (`Summary::with_superseded`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Superseded {
    pub seconds: f64,
    pub nodes: u64,
    pub longest: f64,
    pub peak_bytes: u64,
    /// Candidates for a summary's hardest deals: a deal decided in few positions may have
    /// been searched far further, still unknown, before.
    pub largest: Vec<DealRecord>,
}

impl Superseded {
    pub fn add(&mut self, record: &DealRecord) {
        self.join(Superseded {
            seconds: record.seconds,
            nodes: record.nodes,
            longest: record.seconds,
            peak_bytes: record.peak_bytes,
            largest: vec![record.clone()],
        });
    }

    pub fn join(&mut self, other: Superseded) {
        self.seconds += other.seconds;
        self.nodes = self.nodes.max(other.nodes);
        self.longest = self.longest.max(other.longest);
        self.peak_bytes = self.peak_bytes.max(other.peak_bytes);
        self.largest.extend(other.largest);
        self.largest = hardest(std::mem::take(&mut self.largest));
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Spread<T> {
    pub median: T,
    pub p99: T,
    pub max: T,
}

/// A batch's result. Field names are a contract read by scripts: keep them stable.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    pub game: String,
    pub variant: String,
    pub deals: u64,
    pub won: u64,
    pub lost: u64,
    pub unknown: u64,
    /// Won over all deals (unknowns counted as not won); `ci95` brackets the unknowns.
    pub win_rate: f64,
    /// 95% Wilson interval: its low end counts unknowns as lost, its high end as won.
    pub ci95: [f64; 2],
    pub nodes: Spread<u64>,
    pub seconds: Spread<f64>,
    /// Search time summed over deals (one core's time): every search of each deal, a retry's
    /// and the ones before it alike.
    pub cpu_seconds: f64,
    /// The largest search held this many bytes (table and stack).
    pub peak_bytes: u64,
    pub first_deal: DealId,
    /// The distance between consecutive deal numbers (the shard count for a shard's summary).
    pub deal_step: u64,
    /// One letter per deal in order: `w` won, `l` lost, `u` unknown.
    pub verdicts: String,
    /// The largest searches, one a deal (its largest), the most positions first; each with
    /// the verdict that search reached, which a later search of the deal may have bettered.
    #[serde(default)]
    pub hardest: Vec<DealRecord>,
    /// Records of deals searched again after this summary's per-deal records were gone,
    /// entered onto it (`patience merge --onto`, `stats --unknown-in`; one a deal each time, so
    /// a deal retried in two amendments counts twice), and verdicts entered from another
    /// summary (`Summary::enter`): the verdicts, the maxima, the CPU time and the hardest
    /// deals count them, but the medians and p99s are those of the records before (a
    /// percentile cannot be recomputed without every deal's figures).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub retried: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// How many of the hardest deals a summary names.
const HARDEST: usize = 5;

/// The 95% normal quantile.
const Z95: f64 = 1.959_963_984_540_054;

/// Wilson score interval for `successes` out of `trials` at 95%.
pub fn wilson(successes: u64, trials: u64) -> (f64, f64) {
    if trials == 0 {
        return (0.0, 1.0);
    }
    let n = trials as f64;
    let p = successes as f64 / n;
    let z2 = Z95 * Z95;
    let centre = p + z2 / (2.0 * n);
    let spread = Z95 * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    let denominator = 1.0 + z2 / n;
    // The ends are exact at the extremes (rounding would otherwise leave 0.9999999999999999).
    let low = if successes == 0 {
        0.0
    } else {
        (centre - spread) / denominator
    };
    let high = if successes == trials {
        1.0
    } else {
        (centre + spread) / denominator
    };
    (low, high)
}

/// Nearest-rank percentile of sorted values (`pct` in 0..=100).
fn percentile<T: Copy>(sorted: &[T], pct: f64) -> T {
    let rank = ((pct / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

fn spread<T: Copy + PartialOrd>(mut values: Vec<T>) -> Spread<T> {
    values.sort_by(|a, b| a.partial_cmp(b).expect("no NaN"));
    Spread {
        median: percentile(&values, 50.0),
        p99: percentile(&values, 99.0),
        max: values[values.len() - 1],
    }
}

/// The records with the most nodes, one a deal (its largest), the most first (ties in deal
/// order, so that many searches stopped at one budget name the same deals on every run).
fn hardest(records: impl IntoIterator<Item = DealRecord>) -> Vec<DealRecord> {
    let mut by_nodes: Vec<DealRecord> = records.into_iter().collect();
    by_nodes.sort_by_key(|r| (std::cmp::Reverse(r.nodes), r.deal.number()));
    let mut named: Vec<DealRecord> = Vec::with_capacity(HARDEST);
    for record in by_nodes {
        if named.len() == HARDEST {
            break;
        }
        if named.iter().all(|n| n.deal != record.deal) {
            named.push(record);
        }
    }
    named
}

impl Summary {
    /// Summarises records already in deal order (at least one).
    pub fn from_records(
        game: &str,
        variant: &str,
        records: &[DealRecord],
        deal_step: u64,
    ) -> Summary {
        assert!(!records.is_empty(), "a summary needs at least one deal");
        let mut summary = Summary {
            game: game.to_string(),
            variant: variant.to_string(),
            deals: records.len() as u64,
            won: 0,
            lost: 0,
            unknown: 0,
            win_rate: 0.0,
            ci95: [0.0, 1.0],
            nodes: spread(records.iter().map(|r| r.nodes).collect()),
            seconds: spread(records.iter().map(|r| r.seconds).collect()),
            cpu_seconds: records.iter().map(|r| r.seconds).sum(),
            peak_bytes: records.iter().map(|r| r.peak_bytes).max().unwrap_or(0),
            first_deal: records[0].deal.clone(),
            deal_step,
            verdicts: records.iter().map(|r| r.verdict.letter()).collect(),
            hardest: hardest(records.iter().cloned()),
            retried: 0,
        };
        summary.count_verdicts();
        summary
    }

    /// The summary with the searches of records a later record of the same deal replaced:
    /// their time, and their largest, which the summary's own records no longer show.
    pub fn with_superseded(mut self, superseded: Superseded) -> Summary {
        self.cpu_seconds += superseded.seconds;
        self.nodes.max = self.nodes.max.max(superseded.nodes);
        self.seconds.max = self.seconds.max.max(superseded.longest);
        self.peak_bytes = self.peak_bytes.max(superseded.peak_bytes);
        self.hardest = hardest(self.hardest.into_iter().chain(superseded.largest));
        self
    }

    /// Sets the counts, the win rate and its interval from the verdict letters.
    fn count_verdicts(&mut self) {
        let count = |v: Verdict| {
            let letter = v.letter();
            self.verdicts.chars().filter(|&c| c == letter).count() as u64
        };
        let (won, lost, unknown) = (
            count(Verdict::Won),
            count(Verdict::Lost),
            count(Verdict::Unknown),
        );
        (self.won, self.lost, self.unknown) = (won, lost, unknown);
        self.win_rate = won as f64 / self.deals as f64;
        self.ci95 = [
            wilson(won, self.deals).0,
            wilson(won + unknown, self.deals).1,
        ];
    }

    /// The `i`-th deal this summary covers.
    pub fn deal_at(&self, i: usize) -> DealId {
        let number = self.first_deal.number().unwrap_or(0) + i as u64 * self.deal_step;
        match self.first_deal {
            DealId::Ms(_) => DealId::Ms(number),
            _ => DealId::Seed(number),
        }
    }

    /// Where `deal` stands among the deals this summary covers, if it is one of them.
    pub fn index_of(&self, deal: &DealId) -> Option<usize> {
        let (first, number) = (self.first_deal.number()?, deal.number()?);
        let same_kind = std::mem::discriminant(deal) == std::mem::discriminant(&self.first_deal);
        let offset = number.checked_sub(first)?;
        let i = offset.checked_div(self.deal_step)?;
        let covered = i < self.deals && (i as usize) < self.verdicts.len();
        (same_kind && offset % self.deal_step == 0 && covered).then_some(i as usize)
    }

    /// The verdict this summary holds for `deal`, if it covers it.
    pub fn verdict_of(&self, deal: &DealId) -> Option<Verdict> {
        let i = self.index_of(deal)?;
        Verdict::from_letter(self.verdicts.as_bytes()[i] as char)
    }

    /// Those of `deals` this summary holds as unknown; a deal it does not cover is an error.
    pub fn unknown_among(
        &self,
        deals: impl IntoIterator<Item = DealId>,
    ) -> Result<Vec<DealId>, String> {
        let mut unknown = Vec::new();
        for deal in deals {
            match self.verdict_of(&deal) {
                None => {
                    return Err(format!(
                        "{deal} is not one of the {} deals from {}",
                        self.deals, self.first_deal
                    ))
                }
                Some(Verdict::Unknown) => unknown.push(deal),
                Some(_) => {}
            }
        }
        Ok(unknown)
    }

    /// This summary with later records of its unknown deals entered (one record per deal: the
    /// one that counts). A deal it holds decided keeps its verdict; a record deciding it the
    /// other way is an error, as is a record of a deal it does not cover.
    pub fn amend(&self, records: &[DealRecord]) -> Result<Summary, String> {
        let mut verdicts = self.verdicts.clone().into_bytes();
        let mut amended = self.clone();
        let mut entered: Vec<DealRecord> = Vec::new();
        for record in records {
            if !self.enter_verdict(&mut verdicts, &record.deal, record.verdict, "the records")? {
                continue;
            }
            amended.nodes.max = amended.nodes.max.max(record.nodes);
            amended.seconds.max = amended.seconds.max.max(record.seconds);
            amended.cpu_seconds += record.seconds;
            amended.peak_bytes = amended.peak_bytes.max(record.peak_bytes);
            amended.retried += 1;
            entered.push(record.clone());
        }
        amended.verdicts = String::from_utf8(verdicts).expect("verdict letters are ASCII");
        amended.count_verdicts();
        // A retry that decided a deal in fewer positions leaves the larger search named, as the
        // maxima keep it.
        amended.hardest = hardest(self.hardest.iter().cloned().chain(entered));
        Ok(amended)
    }

    /// This summary with the verdicts that `other`, a summary of the same game and variant over
    /// some of its deals, decided of deals it holds unknown: a pass over a range that takes in
    /// the deals of an earlier, deeper run whose per-deal records are gone. All of `other`'s
    /// search time counts, and its maxima and hardest deals; its medians and p99s cannot
    /// (`retried` counts the deals entered). A deal `other` decides the other way, or one this
    /// summary does not cover, is an error.
    pub fn enter(&self, other: &Summary) -> Result<Summary, String> {
        if (&other.game, &other.variant) != (&self.game, &self.variant) {
            return Err(format!(
                "the summary entered is of {} ({}), but the one it goes onto of {} ({})",
                other.game, other.variant, self.game, self.variant
            ));
        }
        let mut verdicts = self.verdicts.clone().into_bytes();
        let mut amended = self.clone();
        for (i, letter) in other.verdicts.chars().enumerate() {
            let verdict = Verdict::from_letter(letter)
                .ok_or_else(|| format!("the summary entered has a verdict '{letter}'"))?;
            let deal = other.deal_at(i);
            let written =
                self.enter_verdict(&mut verdicts, &deal, verdict, "the summary entered")?;
            if written && verdict != Verdict::Unknown {
                amended.retried += 1;
            }
        }
        amended.verdicts = String::from_utf8(verdicts).expect("verdict letters are ASCII");
        amended.count_verdicts();
        amended.nodes.max = amended.nodes.max.max(other.nodes.max);
        amended.seconds.max = amended.seconds.max.max(other.seconds.max);
        amended.cpu_seconds += other.cpu_seconds;
        amended.peak_bytes = amended.peak_bytes.max(other.peak_bytes);
        amended.hardest = hardest(self.hardest.iter().chain(&other.hardest).cloned());
        Ok(amended)
    }

    /// Writes `verdict` for `deal` into `verdicts` (this summary's letters) where they hold the
    /// deal unknown, and says whether they did. An error where this summary does not cover the
    /// deal, or holds it decided the other way (`source` names what said so).
    fn enter_verdict(
        &self,
        verdicts: &mut [u8],
        deal: &DealId,
        verdict: Verdict,
        source: &str,
    ) -> Result<bool, String> {
        let i = self.index_of(deal).ok_or_else(|| {
            format!(
                "{deal} is not one of the deals the summary covers ({} deals from {})",
                self.deals, self.first_deal
            )
        })?;
        let before = Verdict::from_letter(verdicts[i] as char)
            .ok_or_else(|| format!("the summary has a verdict '{}'", verdicts[i] as char))?;
        if before != Verdict::Unknown {
            if verdict != Verdict::Unknown && verdict != before {
                return Err(format!(
                    "{deal} is {} in the summary but {} in {source}",
                    before.letter(),
                    verdict.letter()
                ));
            }
            return Ok(false);
        }
        verdicts[i] = verdict.letter() as u8;
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_matches_a_worked_value() {
        // 81 of 100: the Wilson interval is about 0.7222 to 0.8748.
        let (lo, hi) = wilson(81, 100);
        assert!(
            (lo - 0.7222).abs() < 1e-4 && (hi - 0.8748).abs() < 1e-4,
            "{lo} {hi}"
        );
        assert_eq!(wilson(0, 10).0, 0.0);
        assert_eq!(wilson(10, 10).1, 1.0);
    }

    #[test]
    fn percentiles_are_nearest_rank() {
        let values: Vec<u64> = (1..=200).collect();
        assert_eq!(percentile(&values, 50.0), 100);
        assert_eq!(percentile(&values, 99.0), 198);
        assert_eq!(percentile(&[7u64], 99.0), 7);
    }

    #[test]
    fn unknowns_widen_the_interval_both_ways() {
        let record = |n, verdict| DealRecord {
            deal: DealId::Seed(n),
            verdict,
            nodes: n,
            formulas: 0,
            seconds: 0.5,
            peak_bytes: 0,
            reason: None,
            searched: Searched::default(),
        };
        let records: Vec<_> = (0..10)
            .map(|n| {
                record(
                    n,
                    if n < 5 {
                        Verdict::Won
                    } else if n < 8 {
                        Verdict::Lost
                    } else {
                        Verdict::Unknown
                    },
                )
            })
            .collect();
        let summary = Summary::from_records("g", "standard", &records, 1);
        assert_eq!((summary.won, summary.lost, summary.unknown), (5, 3, 2));
        assert_eq!(summary.verdicts, "wwwwwllluu");
        assert_eq!(summary.ci95[0], wilson(5, 10).0);
        assert_eq!(summary.ci95[1], wilson(7, 10).1);
        assert_eq!(summary.cpu_seconds, 5.0);
    }

    #[test]
    fn a_shorter_retry_leaves_the_larger_search_among_the_hardest() {
        // Whether or not the retry decided the deal: the hardest name the largest searches, as
        // the maxima count them.
        let record = |n, nodes, verdict| DealRecord {
            deal: DealId::Seed(n),
            verdict,
            nodes,
            formulas: 0,
            seconds: 0.5,
            peak_bytes: 0,
            reason: None,
            searched: Searched::default(),
        };
        let records = [
            record(0, 10, Verdict::Won),
            record(1, 1000, Verdict::Unknown),
        ];
        let summary = Summary::from_records("g", "standard", &records, 1);
        let named = |s: &Summary| -> Vec<(u64, Verdict)> {
            s.hardest.iter().map(|r| (r.nodes, r.verdict)).collect()
        };
        let shorter = summary.amend(&[record(1, 20, Verdict::Unknown)]).unwrap();
        assert_eq!(
            named(&shorter),
            [(1000, Verdict::Unknown), (10, Verdict::Won)]
        );
        assert_eq!(shorter.nodes.max, 1000);
        let won = summary.amend(&[record(1, 20, Verdict::Won)]).unwrap();
        assert_eq!(named(&won), [(1000, Verdict::Unknown), (10, Verdict::Won)]);
        assert_eq!(won.verdict_of(&DealId::Seed(1)), Some(Verdict::Won));
        let longer = summary.amend(&[record(1, 5000, Verdict::Unknown)]).unwrap();
        assert_eq!(
            named(&longer),
            [(5000, Verdict::Unknown), (10, Verdict::Won)]
        );
    }

    #[test]
    fn superseded_searches_count_in_the_time_and_the_largest_search() {
        let record = |n, nodes, seconds, verdict| DealRecord {
            deal: DealId::Seed(n),
            verdict,
            nodes,
            formulas: 0,
            seconds,
            peak_bytes: nodes * 10,
            reason: None,
            searched: Searched::default(),
        };
        let won = [record(0, 20, 1.0, Verdict::Won)];
        let mut superseded = Superseded::default();
        superseded.add(&record(0, 5000, 2.0, Verdict::Unknown));
        superseded.add(&record(0, 900, 4.0, Verdict::Unknown));
        let summary = Summary::from_records("g", "standard", &won, 1).with_superseded(superseded);
        assert_eq!(summary.cpu_seconds, 7.0);
        assert_eq!(summary.nodes.max, 5000);
        assert_eq!(summary.seconds.max, 4.0);
        assert_eq!(summary.peak_bytes, 50000);
        assert_eq!(summary.nodes.median, 20);
        let named: Vec<(u64, Verdict)> = summary
            .hardest
            .iter()
            .map(|r| (r.nodes, r.verdict))
            .collect();
        assert_eq!(
            named,
            [(5000, Verdict::Unknown)],
            "one entry a deal, its largest"
        );
    }
}
