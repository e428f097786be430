//! The games, and the one list that names them. Everything outside this folder reaches a game
//! through `GameEntry`, which erases the game's types behind card orders and move texts.

pub mod freecell;
pub mod gate;
pub mod harp;
pub mod klondike;
pub mod queens;
pub mod sedgewick;
pub mod terrace;
pub mod wedge;
pub mod wheel;

use crate::card::Card;
use crate::clock::CpuClock;
use crate::game::{move_texts, solution_texts, Game, OptionValues, VariantOption};
use crate::oracle;
use crate::solver::{self, Budget, Exhausted, Order, Outcome, Verdict};
use crate::strategy::{self, Ending, StrategyKind};
use crate::verify::{self, Replay};
use std::marker::PhantomData;

/// One deal's answer from the solver, in text form.
#[derive(Clone, Debug)]
pub struct SolveReport {
    pub verdict: Verdict,
    pub exhausted: Option<Exhausted>,
    pub nodes: u64,
    /// Cases put to the SAT solver (`Outcome::formulas`).
    pub formulas: u64,
    pub seconds: f64,
    pub table_entries: usize,
    pub peak_bytes: u64,
    pub moves: Vec<String>,
    /// For a loss proven by `--search wider`: the variant whose whole graph was searched.
    pub lost_under: Option<String>,
}

impl SolveReport {
    /// No search yet, unknown for `why`: the narrower and wider searches count each variant's
    /// search into it.
    fn unknown(why: Exhausted) -> Self {
        SolveReport {
            verdict: Verdict::Unknown,
            exhausted: Some(why),
            nodes: 0,
            formulas: 0,
            seconds: 0.0,
            table_entries: 0,
            peak_bytes: 0,
            moves: Vec::new(),
            lost_under: None,
        }
    }

    /// Counts one more search in the report: its positions, and its table and memory where
    /// they are the largest yet.
    fn count<M>(&mut self, outcome: &Outcome<M>) {
        self.nodes += outcome.nodes;
        self.formulas += outcome.formulas;
        self.table_entries = self.table_entries.max(outcome.table_entries);
        self.peak_bytes = self.peak_bytes.max(outcome.peak_bytes);
    }
}

/// One deal played by a strategy.
#[derive(Clone, Debug)]
pub struct PlayReport {
    pub moves: Vec<String>,
    pub ending: Ending,
}

/// A game as the command line, the batch driver and the strategies see it.
pub trait GameEntry: Sync {
    fn name(&self) -> &'static str;
    fn summary(&self) -> &'static str;
    fn packs(&self) -> usize;
    fn options(&self) -> &'static [VariantOption];
    fn search(&self) -> Order;
    /// Whether the layered search (`--search layered`) can search this game.
    fn layered(&self) -> bool;
    /// Whether the SAT search (`--search sat`) can decide this game (`Game::FORMULAS`).
    fn formulas(&self) -> bool;
    /// How many heuristics the game gives, one beam order each (`Game::HEURISTICS`).
    fn heuristics(&self) -> usize;
    /// The narrower variants of `options` (`Game::narrower`), by name.
    fn narrower(&self, options: &OptionValues) -> Vec<String>;
    /// The wider variants of `options` (`Game::wider`), by name.
    fn wider(&self, options: &OptionValues) -> Vec<String>;
    fn layout(&self, options: &OptionValues, cards: &[Card]) -> Result<String, String>;
    fn solve(
        &self,
        options: &OptionValues,
        cards: &[Card],
        order: Order,
        budget: Budget,
    ) -> Result<SolveReport, String>;
    fn replay(
        &self,
        options: &OptionValues,
        cards: &[Card],
        moves: &[String],
    ) -> Result<Replay, String>;
    fn perft(&self, options: &OptionValues, cards: &[Card], depth: u32) -> Result<u64, String>;
    /// Plays the deal with a strategy (`seed` drives `random`).
    fn play(
        &self,
        options: &OptionValues,
        cards: &[Card],
        strategy: StrategyKind,
        seed: u64,
    ) -> Result<PlayReport, String>;
}

struct Entry<G>(PhantomData<G>);

impl<G: Game> GameEntry for Entry<G> {
    fn name(&self) -> &'static str {
        G::NAME
    }
    fn summary(&self) -> &'static str {
        G::SUMMARY
    }
    fn packs(&self) -> usize {
        G::PACKS
    }
    fn options(&self) -> &'static [VariantOption] {
        G::OPTIONS
    }
    fn search(&self) -> Order {
        G::SEARCH
    }
    fn layered(&self) -> bool {
        G::LAYERED
    }
    fn formulas(&self) -> bool {
        G::FORMULAS
    }
    fn heuristics(&self) -> usize {
        G::HEURISTICS
    }
    fn narrower(&self, options: &OptionValues) -> Vec<String> {
        G::narrower(options)
            .iter()
            .map(|o| o.variant_name(G::OPTIONS))
            .collect()
    }
    fn wider(&self, options: &OptionValues) -> Vec<String> {
        G::wider(options)
            .iter()
            .map(|o| o.variant_name(G::OPTIONS))
            .collect()
    }
    fn layout(&self, options: &OptionValues, cards: &[Card]) -> Result<String, String> {
        Ok(G::deal(options, cards)?.layout())
    }
    fn solve(
        &self,
        options: &OptionValues,
        cards: &[Card],
        order: Order,
        budget: Budget,
    ) -> Result<SolveReport, String> {
        match order {
            Order::Narrower => return solve_narrower::<G>(options, cards, budget),
            Order::Wider => return solve_wider::<G>(options, cards, budget),
            _ => {}
        }
        let deal = G::deal(options, cards)?;
        let started = CpuClock::start();
        let outcome = solver::solve(&deal, order, budget);
        let seconds = started.seconds();
        let moves = solution_texts(&deal, &outcome.moves);
        Ok(SolveReport {
            verdict: outcome.verdict,
            exhausted: outcome.exhausted,
            nodes: outcome.nodes,
            formulas: outcome.formulas,
            seconds,
            table_entries: outcome.table_entries,
            peak_bytes: outcome.peak_bytes,
            moves,
            lost_under: None,
        })
    }
    fn replay(
        &self,
        options: &OptionValues,
        cards: &[Card],
        moves: &[String],
    ) -> Result<Replay, String> {
        Ok(verify::replay(&G::deal(options, cards)?, moves))
    }
    fn perft(&self, options: &OptionValues, cards: &[Card], depth: u32) -> Result<u64, String> {
        Ok(oracle::perft(&G::deal(options, cards)?, depth))
    }
    fn play(
        &self,
        options: &OptionValues,
        cards: &[Card],
        kind: StrategyKind,
        seed: u64,
    ) -> Result<PlayReport, String> {
        let deal = G::deal(options, cards)?;
        let (line, ending) = strategy::play(&deal, kind.build(seed).as_mut());
        Ok(PlayReport {
            moves: move_texts(&deal, &line),
            ending,
        })
    }
}

/// `--search narrower`: the deal under each narrower variant, by that variant's own default
/// order within the budget each; the first win, replayed here by the checker, is the answer.
/// A win that does not replay here is an error, never a verdict: `Game::narrower` was wrong.
fn solve_narrower<G: Game>(
    options: &OptionValues,
    cards: &[Card],
    budget: Budget,
) -> Result<SolveReport, String> {
    let here = G::deal(options, cards)?;
    let started = CpuClock::start();
    let mut report = SolveReport::unknown(Exhausted::Narrower);
    for narrower in G::narrower(options) {
        let deal = G::deal(&narrower, cards)?;
        let outcome = solver::solve(&deal, G::SEARCH, budget);
        report.count(&outcome);
        if outcome.verdict == Verdict::Won {
            let moves = widened_texts(&deal, &here, &outcome.moves);
            let replay = verify::replay(&here, &moves);
            if !replay.is_won() {
                return Err(format!(
                    "a win under the narrower variant {} does not replay under {}: {replay}",
                    narrower.variant_name(G::OPTIONS),
                    options.variant_name(G::OPTIONS)
                ));
            }
            report.verdict = Verdict::Won;
            report.exhausted = None;
            report.moves = moves;
            break;
        }
    }
    report.seconds = started.seconds();
    Ok(report)
}

/// A solver's line under a narrower variant from `there`, as the texts of the legal moves
/// that play it from `here` (`Game::widened`).
fn widened_texts<G: Game>(there: &G, here: &G, line: &[G::Move]) -> Vec<String> {
    let (mut there, mut here) = (*there, *here);
    let (mut steps, mut texts) = (Vec::new(), Vec::new());
    for step in G::realize(&there, line) {
        steps.clear();
        there.widened(step, &here, &mut steps);
        for &wider in &steps {
            texts.push(here.move_text(wider));
            here = here.play(wider);
        }
        there = there.play(step);
    }
    texts
}

/// `--search wider`: the deal under each wider variant, depth-first (the order that finishes
/// a graph soonest, with one path and the table in memory) within the budget each; the first
/// loss there is the answer, a proof here by `Game::wider`'s claim. Unknown otherwise: with the
/// budget's reason where a wider variant's search spent it, else because every one was won.
fn solve_wider<G: Game>(
    options: &OptionValues,
    cards: &[Card],
    budget: Budget,
) -> Result<SolveReport, String> {
    // The deal must be one of this variant's too.
    G::deal(options, cards)?;
    let started = CpuClock::start();
    let mut report = SolveReport::unknown(Exhausted::Wider);
    for wider in G::wider(options) {
        let deal = G::deal(&wider, cards)?;
        let outcome = solver::solve(&deal, Order::DepthFirst, budget);
        report.count(&outcome);
        match outcome.verdict {
            Verdict::Lost => {
                report.verdict = Verdict::Lost;
                report.exhausted = None;
                report.lost_under = Some(wider.variant_name(G::OPTIONS));
                break;
            }
            Verdict::Unknown => report.exhausted = outcome.exhausted,
            Verdict::Won => {}
        }
    }
    report.seconds = started.seconds();
    Ok(report)
}

static FREECELL: Entry<freecell::FreeCell> = Entry(PhantomData);
static GATE: Entry<gate::Gate> = Entry(PhantomData);
static SEDGEWICK: Entry<sedgewick::Sedgewick> = Entry(PhantomData);
static WHEEL: Entry<wheel::Wheel> = Entry(PhantomData);
static TERRACE: Entry<terrace::Terrace> = Entry(PhantomData);
static QUEENS: Entry<queens::Queens> = Entry(PhantomData);
static WEDGE: Entry<wedge::Wedge> = Entry(PhantomData);
static HARP: Entry<harp::Harp> = Entry(PhantomData);
static KLONDIKE: Entry<klondike::Klondike> = Entry(PhantomData);

/// Every game, in the order `patience games` lists them.
pub fn all() -> [&'static dyn GameEntry; 9] {
    [
        &WEDGE, &GATE, &HARP, &SEDGEWICK, &WHEEL, &TERRACE, &QUEENS, &FREECELL, &KLONDIKE,
    ]
}

pub fn find(name: &str) -> Option<&'static dyn GameEntry> {
    all()
        .into_iter()
        .find(|g| g.name().eq_ignore_ascii_case(name))
}
