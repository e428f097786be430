//! The batch driver: solves a range of numbered deals in parallel, appends each finished deal to
//! a JSON-lines file as soon as it is known (so an interrupted run loses nothing and can be
//! resumed), and summarises the verdicts.

use crate::deal::DealId;
use crate::game::OptionValues;
use crate::games::GameEntry;
use crate::solver::{Budget, Exhausted, Order, Verdict, ROLLOUT_LEVEL};
use crate::stats::{DealRecord, Searched, Summary, Superseded};
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet};
use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Numbered deals: seeds or Microsoft deal numbers, from `first` to `last` inclusive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DealRange {
    pub microsoft: bool,
    pub first: u64,
    pub last: u64,
}

impl DealRange {
    /// Parses `A..B` (both ends included).
    pub fn parse(text: &str, microsoft: bool) -> Result<DealRange, String> {
        let (a, b) = text.split_once("..").ok_or_else(|| {
            format!("the deal range '{text}' is not of the form A..B (for example 0..999)")
        })?;
        let number = |s: &str| {
            s.trim()
                .parse::<u64>()
                .map_err(|_| format!("'{s}' in the deal range '{text}' is not a whole number"))
        };
        let (first, last) = (number(a)?, number(b.trim_start_matches('='))?);
        if first > last {
            return Err(format!(
                "the deal range '{text}' is empty: {first} is above {last}"
            ));
        }
        if microsoft && (first == 0 || last > crate::deal::MS_MAX) {
            return Err(format!(
                "Microsoft deal numbers run from 1 to {}; '{text}' goes outside",
                crate::deal::MS_MAX
            ));
        }
        Ok(DealRange {
            microsoft,
            first,
            last,
        })
    }

    pub fn id(&self, number: u64) -> DealId {
        if self.microsoft {
            DealId::Ms(number)
        } else {
            DealId::Seed(number)
        }
    }

    /// Shard `k` of `n` (1-based): every `n`-th deal, starting with the `k`-th.
    pub fn shard(&self, k: u64, n: u64) -> impl Iterator<Item = DealId> + '_ {
        (self.first + k - 1..=self.last)
            .step_by(n as usize)
            .map(|d| self.id(d))
    }
}

/// Parses `K/N` with 1 ≤ K ≤ N.
pub fn parse_shard(text: &str) -> Result<(u64, u64), String> {
    let bad =
        || format!("the shard '{text}' is not of the form K/N with 1 <= K <= N (for example 2/4)");
    let (k, n) = text.split_once('/').ok_or_else(bad)?;
    let (k, n) = (
        k.trim().parse::<u64>().map_err(|_| bad())?,
        n.trim().parse::<u64>().map_err(|_| bad())?,
    );
    if k == 0 || k > n {
        return Err(bad());
    }
    Ok((k, n))
}

/// The first line of a `--jsonl` file: which game and variant its deals belong to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JsonlHeader {
    pub game: String,
    pub variant: String,
}

pub struct Batch<'a> {
    pub game: &'static dyn GameEntry,
    pub options: &'a OptionValues,
    pub deals: Vec<DealId>,
    pub order: Order,
    pub budget: Budget,
    pub jsonl: Option<&'a Path>,
    pub resume: bool,
    /// Solve again the deals the `--jsonl` file holds as unknown, except those that one of its
    /// records shows already unknown under this search order (and first beam width) within at
    /// least this node budget.
    pub retry_unknown: bool,
    pub progress: bool,
}

/// What a batch leaves: each deal's record that counts, in the order asked, how many of the
/// deals it searched (the others were settled by the `--jsonl` file's records), and the
/// searches of their records that do not count (`Summary::with_superseded`).
pub struct BatchOutcome {
    pub records: Vec<DealRecord>,
    pub searched: usize,
    pub superseded: Superseded,
}

impl Batch<'_> {
    fn header(&self) -> JsonlHeader {
        JsonlHeader {
            game: self.game.name().to_string(),
            variant: self.options.variant_name(self.game.options()),
        }
    }

    /// Solves every deal not already in the `--jsonl` file.
    pub fn run(&self) -> Result<BatchOutcome, String> {
        let header = self.header();
        if let Some(first) = self.deals.first() {
            first.cards(self.game.packs())?;
        }
        let (records, writer) = match self.jsonl {
            Some(path) => {
                let (records, file) = open_jsonl(path, &header, self.resume)?;
                (records, Some(Mutex::new(file)))
            }
            None => (Vec::new(), None),
        };
        let now = Searched {
            search: Some(self.order),
            beam_width: self.budget.unusual_beam_width(),
            beam_salt: self.budget.beam_salt,
            max_beam_width: self.budget.max_beam_width,
            rollout_level: self
                .order
                .rolls_out()
                .then(|| self.budget.rollout_level.unwrap_or(ROLLOUT_LEVEL)),
            max_nodes: self.budget.max_nodes,
        };
        // Any record of a deal counts, not only its latest: a pass run again after later
        // passes still skips the deals it has tried, so a ladder of passes can be rerun whole.
        let tried_as_now: HashSet<DealId> = records
            .iter()
            .filter(|r| {
                let then = r.searched;
                then.same_but_budget(now)
                    && now.max_nodes.is_some_and(|m| {
                        // A beam stopped at its widest run, or before a run the budget left
                        // could not carry, within as large a budget would stop there again.
                        // So would a wider search whose variants were all won, and the SAT
                        // search, whose budget is conflicts, not nodes.
                        let stopped_short = then.max_beam_width.is_some()
                            || r.reason == Some(Exhausted::NextBeamRun)
                            || r.reason == Some(Exhausted::Wider)
                            || r.reason == Some(Exhausted::Conflicts);
                        r.nodes >= m || stopped_short && then.max_nodes >= Some(m)
                    })
            })
            .map(|r| r.deal.clone())
            .collect();
        let mut finished = Counted::default();
        for record in records {
            finished.enter(record)?;
        }
        let settled = |d: &DealId| {
            finished.get(d).is_some_and(|r| {
                !(self.retry_unknown && r.verdict == Verdict::Unknown) || tried_as_now.contains(d)
            })
        };
        let todo: Vec<&DealId> = self.deals.iter().filter(|d| !settled(d)).collect();
        let bar = progress_bar(self.deals.len(), self.progress);
        bar.set_position((self.deals.len() - todo.len()) as u64);
        let fresh: Result<Vec<DealRecord>, String> = todo
            .par_iter()
            .map(|&deal| {
                let cards = deal.cards(self.game.packs())?;
                let report = self
                    .game
                    .solve(self.options, &cards, self.order, self.budget)?;
                let record = DealRecord {
                    deal: deal.clone(),
                    verdict: report.verdict,
                    nodes: report.nodes,
                    formulas: report.formulas,
                    seconds: report.seconds,
                    peak_bytes: report.peak_bytes,
                    reason: report.exhausted,
                    searched: now,
                };
                if let Some(writer) = &writer {
                    let mut line = serde_json::to_string(&record).expect("records serialise");
                    line.push('\n');
                    let mut file = writer.lock().expect("no writer panicked");
                    file.write_all(line.as_bytes())
                        .map_err(|e| format!("cannot append to the --jsonl file: {e}"))?;
                }
                bar.inc(1);
                Ok(record)
            })
            .collect();
        bar.finish_and_clear();
        for record in fresh? {
            finished.enter(record)?;
        }
        let mut superseded = Superseded::default();
        let records = self
            .deals
            .iter()
            .map(|d| {
                let (record, replaced) = finished.remove(d).expect("every deal finished");
                superseded.join(replaced);
                record
            })
            .collect();
        Ok(BatchOutcome {
            records,
            searched: todo.len(),
            superseded,
        })
    }
}

/// A progress bar over `deals` deals, drawn only when `visible` (a terminal).
pub fn progress_bar(deals: usize, visible: bool) -> ProgressBar {
    let bar = if visible {
        ProgressBar::new(deals as u64)
    } else {
        ProgressBar::hidden()
    };
    bar.set_style(
        ProgressStyle::with_template(
            "{elapsed_precise} [{bar:40}] {pos}/{len} deals, {per_sec}, eta {eta}",
        )
        .expect("valid template")
        .progress_chars("=> "),
    );
    bar
}

/// Each deal's record that counts, where a deal may have several (a retry of an unknown deal
/// appends another): a won or lost verdict is final and outranks an unknown one whatever the
/// order; among records of equal rank the later one counts. Won against lost is an error. The
/// searches of the records that do not count are kept too: they were made all the same.
#[derive(Default)]
struct Counted {
    by_deal: HashMap<DealId, (DealRecord, Superseded)>,
}

impl Counted {
    fn enter(&mut self, record: DealRecord) -> Result<(), String> {
        let Some((seen, superseded)) = self.by_deal.get_mut(&record.deal) else {
            self.by_deal
                .insert(record.deal.clone(), (record, Superseded::default()));
            return Ok(());
        };
        let decided = |r: &DealRecord| r.verdict != Verdict::Unknown;
        if decided(seen) && decided(&record) && seen.verdict != record.verdict {
            return Err(format!(
                "{} has two different verdicts in these files",
                record.deal
            ));
        }
        if decided(seen) && !decided(&record) {
            superseded.add(&record);
        } else {
            superseded.add(seen);
            *seen = record;
        }
        Ok(())
    }

    fn get(&self, deal: &DealId) -> Option<&DealRecord> {
        self.by_deal.get(deal).map(|(record, _)| record)
    }

    /// The record that counts of `deal` and the searches of its others.
    fn remove(&mut self, deal: &DealId) -> Option<(DealRecord, Superseded)> {
        self.by_deal.remove(deal)
    }
}

/// Opens the `--jsonl` file for appending, returning the records it already holds, in order.
/// A file that exists is continued only with `--resume`, and only for the same game and
/// variant; a last line cut short by a kill is dropped.
fn open_jsonl(
    path: &Path,
    header: &JsonlHeader,
    resume: bool,
) -> Result<(Vec<DealRecord>, File), String> {
    let shown = path.display();
    let exists = path.metadata().map(|m| m.len() > 0).unwrap_or(false);
    if exists && !resume {
        return Err(format!(
            "{shown} already holds deals: pass --resume to continue it, or name a new file"
        ));
    }
    let mut records = Vec::new();
    if exists {
        let (found, records_read, intact_len) = read_jsonl(path)?;
        if found != *header {
            return Err(format!(
                "{shown} holds {} ({}), not {} ({}): name another file",
                found.game, found.variant, header.game, header.variant
            ));
        }
        let file = OpenOptions::new()
            .write(true)
            .open(path)
            .map_err(|e| format!("cannot open {shown}: {e}"))?;
        file.set_len(intact_len)
            .map_err(|e| format!("cannot trim the cut-off last line of {shown}: {e}"))?;
        records = records_read;
    } else {
        let mut file = File::create(path).map_err(|e| format!("cannot create {shown}: {e}"))?;
        let line = serde_json::to_string(header).expect("header serialises") + "\n";
        file.write_all(line.as_bytes())
            .map_err(|e| format!("cannot write {shown}: {e}"))?;
    }
    let file = OpenOptions::new()
        .append(true)
        .open(path)
        .map_err(|e| format!("cannot open {shown}: {e}"))?;
    Ok((records, file))
}

/// Reads a `--jsonl` file: its header, its complete records, and the length of its intact
/// part (everything up to the last complete line).
pub fn read_jsonl(path: &Path) -> Result<(JsonlHeader, Vec<DealRecord>, u64), String> {
    let shown = path.display();
    let file = File::open(path).map_err(|e| format!("cannot read {shown}: {e}"))?;
    let mut reader = BufReader::new(file);
    let mut header = None;
    let mut records = Vec::new();
    let mut intact = 0u64;
    let mut line = String::new();
    for number in 1.. {
        line.clear();
        let read = reader
            .read_line(&mut line)
            .map_err(|e| format!("cannot read {shown}: {e}"))?;
        if read == 0 || !line.ends_with('\n') {
            break; // the end, or a last line cut short: dropped
        }
        let bad = |e: serde_json::Error| {
            format!("{shown}, line {number}, is not a deal record of ours: {e}")
        };
        if header.is_none() {
            header = Some(serde_json::from_str::<JsonlHeader>(&line).map_err(bad)?);
        } else {
            records.push(serde_json::from_str::<DealRecord>(&line).map_err(bad)?);
        }
        intact += read as u64;
    }
    let header = header.ok_or_else(|| format!("{shown} is empty: it has no header line"))?;
    Ok((header, records, intact))
}

/// Reads `--jsonl` files of one game and variant: their header, each deal's record that
/// counts (`Counted`), in deal order, and the searches of the records that do not.
fn read_records(paths: &[PathBuf]) -> Result<(JsonlHeader, Vec<DealRecord>, Superseded), String> {
    let mut header: Option<JsonlHeader> = None;
    let mut counted = Counted::default();
    for path in paths {
        let (found, records, _) = read_jsonl(path)?;
        match &header {
            Some(h) if *h != found => {
                return Err(format!(
                    "{} holds {} ({}), but the first file holds {} ({})",
                    path.display(),
                    found.game,
                    found.variant,
                    h.game,
                    h.variant
                ))
            }
            _ => header = Some(found),
        }
        for record in records {
            counted.enter(record)?;
        }
    }
    let header = header.ok_or("merge needs at least one --jsonl file")?;
    // In deal order, so that the time summed is the same to the last digit on every run.
    let mut counted: Vec<(DealRecord, Superseded)> = counted.by_deal.into_values().collect();
    counted.sort_by_key(|(r, _)| (matches!(r.deal, DealId::Ms(_)), r.deal.number()));
    let mut superseded = Superseded::default();
    let mut records = Vec::with_capacity(counted.len());
    for (record, replaced) in counted {
        superseded.join(replaced);
        records.push(record);
    }
    Ok((header, records, superseded))
}

/// Enters onto a summary whose own per-deal records are gone the records of `--jsonl` files
/// (`Summary::amend`: the retry passes over its unknown deals, `stats --unknown-in`), then the
/// verdicts of other summaries over some of its deals (`Summary::enter`: earlier runs whose
/// records are gone too).
pub fn merge_onto(
    base: &Summary,
    paths: &[PathBuf],
    summaries: &[Summary],
) -> Result<Summary, String> {
    let mut merged = base.clone();
    if !paths.is_empty() {
        let (header, records, superseded) = read_records(paths)?;
        if (header.game.as_str(), header.variant.as_str()) != (&base.game, &base.variant) {
            return Err(format!(
                "the files hold {} ({}), but the summary {} ({})",
                header.game, header.variant, base.game, base.variant
            ));
        }
        merged = merged.amend(&records)?.with_superseded(superseded);
    }
    for other in summaries {
        merged = merged.enter(other)?;
    }
    Ok(merged)
}

/// Combines the `--jsonl` files of shards (or of interrupted runs) into the summary a single
/// run over the same deals gives.
pub fn merge(paths: &[PathBuf]) -> Result<Summary, String> {
    let (header, records, superseded) = read_records(paths)?;
    if records.is_empty() {
        return Err("the files hold no deals".to_string());
    }
    for pair in records.windows(2) {
        let kinds_match =
            std::mem::discriminant(&pair[0].deal) == std::mem::discriminant(&pair[1].deal);
        if !kinds_match || pair[0].deal.number().map(|n| n + 1) != pair[1].deal.number() {
            return Err(format!(
                "the files do not cover one range of deals: nothing between {} and {}",
                pair[0].deal, pair[1].deal
            ));
        }
    }
    Ok(
        Summary::from_records(&header.game, &header.variant, &records, 1)
            .with_superseded(superseded),
    )
}
