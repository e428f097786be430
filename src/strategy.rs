//! Heuristic players. A strategy never sees a position: it is shown, for each legal move,
//! what a player can tell before making it (how the visible counts change, and what the book's
//! advice says of it), and picks one. The stock's order and face-down cards cannot reach it.

use crate::game::{Game, Tally};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::HashSet;

/// A legal move as a strategy sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Choice {
    /// Cards the move sends home.
    pub home: i16,
    /// Cards it uncovers (covered cards before less covered cards after).
    pub exposes: i16,
    /// Empty places it makes (negative when it fills some).
    pub spaces: i16,
    /// Cards it takes from the stock.
    pub draws: i16,
    /// The book's opinion of it (`Game::advice`).
    pub advice: i8,
}

impl Choice {
    fn new(before: Tally, after: Tally, advice: i8) -> Choice {
        let change = |b: u16, a: u16| a as i16 - b as i16;
        Choice {
            home: change(before.home, after.home),
            exposes: -change(before.covered, after.covered),
            spaces: change(before.spaces, after.spaces),
            draws: -change(before.stock, after.stock),
            advice,
        }
    }

    /// Greedy's order: home first (the most cards), then the moves that uncover or free the
    /// most, then a card from the stock, then anything else, the most useful first.
    fn greedy_rank(&self) -> (u8, i16, i16) {
        let gain = self.exposes + self.spaces;
        let tier = if self.home > 0 {
            3
        } else if self.draws == 0 && gain > 0 {
            2
        } else if self.draws > 0 {
            1
        } else {
            0
        };
        (tier, self.home, gain)
    }
}

/// A way of playing: picks one of the choices (never empty), by index.
pub trait Strategy {
    fn choose(&mut self, choices: &[Choice]) -> usize;
}

/// The strategies the command line offers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum StrategyKind {
    Random,
    Greedy,
    Book,
}

impl StrategyKind {
    pub const ALL: [StrategyKind; 3] = [
        StrategyKind::Random,
        StrategyKind::Greedy,
        StrategyKind::Book,
    ];

    pub fn name(self) -> &'static str {
        match self {
            StrategyKind::Random => "random",
            StrategyKind::Greedy => "greedy",
            StrategyKind::Book => "book",
        }
    }

    pub fn parse(name: &str) -> Result<StrategyKind, String> {
        StrategyKind::ALL
            .into_iter()
            .find(|s| s.name().eq_ignore_ascii_case(name.trim()))
            .ok_or_else(|| format!("unknown strategy '{name}' (strategies: random, greedy, book)"))
    }

    /// The strategy, ready for one deal; `seed` drives `random` only.
    pub fn build(self, seed: u64) -> Box<dyn Strategy> {
        match self {
            StrategyKind::Random => Box::new(Random(ChaCha8Rng::seed_from_u64(seed))),
            StrategyKind::Greedy => Box::new(Greedy),
            StrategyKind::Book => Box::new(Book),
        }
    }
}

/// A uniformly random choice.
pub struct Random(ChaCha8Rng);

impl Strategy for Random {
    fn choose(&mut self, choices: &[Choice]) -> usize {
        self.0.gen_range(0..choices.len())
    }
}

/// The first of the best by `key` (the legal-move order breaks ties).
fn first_best<K: Ord>(choices: &[Choice], key: impl Fn(&Choice) -> K) -> usize {
    let mut best = 0;
    for (i, choice) in choices.iter().enumerate().skip(1) {
        if key(choice) > key(&choices[best]) {
            best = i;
        }
    }
    best
}

/// Foundation moves first, then the move that uncovers or frees the most (`greedy_rank`).
pub struct Greedy;

impl Strategy for Greedy {
    fn choose(&mut self, choices: &[Choice]) -> usize {
        first_best(choices, Choice::greedy_rank)
    }
}

/// The book's advice first; greedy among the moves it rates alike.
pub struct Book;

impl Strategy for Book {
    fn choose(&mut self, choices: &[Choice]) -> usize {
        first_best(choices, |c| (c.advice, c.greedy_rank()))
    }
}

/// Moves after which a game is given up as lost: no won game of ours is nearly this long.
pub const MOVE_LIMIT: usize = 2_000;

/// How a played game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Ending {
    Won,
    /// No legal move was left.
    Stuck,
    /// Every legal move led back to a position already played through.
    Looping,
    /// `MOVE_LIMIT` moves were made.
    MoveLimit,
}

impl Ending {
    pub fn describe(self) -> &'static str {
        match self {
            Ending::Won => "won",
            Ending::Stuck => "lost: no legal move left",
            Ending::Looping => "lost: every move returns to a position already played",
            Ending::MoveLimit => "lost: gave up after the move limit",
        }
    }
}

/// Plays one deal to its end with `strategy`. Moves that return to a position already played
/// through are not offered (a player remembers where they have been), so no game loops. The
/// same position means the same up to interchangeable piles (`Game::canonical`), not the same
/// key: a key may take positions a player tells apart for one (Klondike keys a waste of three
/// cards as the fresh stock it was dealt from).
pub fn play<G: Game>(start: &G, strategy: &mut dyn Strategy) -> (Vec<G::Move>, Ending) {
    let mut position = *start;
    let mut seen = HashSet::from([position.canonical()]);
    let mut line = Vec::new();
    let mut moves = Vec::new();
    let mut offered = Vec::new();
    let mut choices = Vec::new();
    loop {
        if position.is_won() {
            return (line, Ending::Won);
        }
        if line.len() == MOVE_LIMIT {
            return (line, Ending::MoveLimit);
        }
        moves.clear();
        position.legal_moves(&mut moves);
        if moves.is_empty() {
            return (line, Ending::Stuck);
        }
        let before = position.tally();
        offered.clear();
        choices.clear();
        for &mv in &moves {
            let after = position.play(mv);
            if !seen.contains(&after.canonical()) {
                offered.push((mv, after));
                choices.push(Choice::new(before, after.tally(), position.advice(mv)));
            }
        }
        if offered.is_empty() {
            return (line, Ending::Looping);
        }
        let (mv, after) = offered[strategy.choose(&choices)];
        line.push(mv);
        position = after;
        seen.insert(position.canonical());
    }
}
