//! The `Game` trait: everything the solver, the checker, the batch driver and the strategies
//! may know about a game. One type per game implements it; nothing outside `games/` names one.

use crate::card::Card;
use crate::cnf::{Cnf, Model};
use crate::solver::Order;
use std::fmt::Debug;
use std::hash::Hash;

/// A game position. Positions are small `Copy` values: the search copies a position to make a
/// move (copy-make), so there is no unmake to get wrong and no heap allocation per node.
///
/// Equality and hashing of the position itself are exact (every part of the position counts);
/// the brute-force oracle relies on them, while the solver uses the symmetry-reduced `key`.
pub trait Game: Copy + Eq + Hash + Send + Sync + 'static {
    /// A move, as small as the game allows. Its meaning is relative to the position it is
    /// played from.
    type Move: Copy + Eq + Hash + Debug + Send + Sync + 'static;
    /// The transposition-table key: a fixed-size value that identifies the position up to the
    /// game's symmetries (interchangeable piles, interchangeable copies of a card).
    type Key: Copy + Eq + Hash + Send + Sync + 'static;

    /// The game's name on the command line.
    const NAME: &'static str;
    /// One line on what the game is.
    const SUMMARY: &'static str;
    /// How many packs the game uses (a deal has `52 * PACKS` cards).
    const PACKS: usize;
    /// The variant options the command line offers, with their defaults.
    const OPTIONS: &'static [VariantOption];
    /// The search order used when the user names none: the one that decides the most deals
    /// within a budget. The portfolio unless a game has measured better.
    const SEARCH: Order = Order::Portfolio;
    /// Whether the game gives `layer` and `rebuild`, which the layered search needs.
    const LAYERED: bool = false;
    /// Whether the game gives `formula`, which the SAT search (`Order::Sat`) needs.
    const FORMULAS: bool = false;
    /// How many heuristics the game gives (`heuristic`, then `other_heuristic` 2, 3, ...): a
    /// beam order for each (`--search beam`, `beam-second`, `beam-third`, ..., `beam-fifth`).
    const HEURISTICS: usize = 1;
    /// Whether a position's search moves cost enough to work out (a relaxed game played out
    /// for each position) that the nested rollouts, which expand the same positions many
    /// times, keep those of the positions they expanded lately, with their children's keys.
    /// Where moves are cheap the keeping costs more than it saves (General Sedgewick's
    /// rollouts of level 2 ran 1.4 times slower with it, the Queens' nearly three times as
    /// fast; Terrace's, once the keys were kept too, about a tenth faster).
    const COSTLY_MOVES: bool = false;

    /// Lays out a deal (cards in dealing order) under the chosen variant.
    fn deal(options: &OptionValues, order: &[Card]) -> Result<Self, String>;

    /// The narrower variants of `options`: option sets whose every line of play is, move for
    /// move as `Game::widened` spells it, a line of play under `options` (an option that only
    /// adds moves, taken away), so a win there, replayed here, is a win here. `--search
    /// narrower` solves the deal under them for the wins this variant's own search misses.
    /// None unless a game lists some.
    fn narrower(_options: &OptionValues) -> Vec<OptionValues> {
        Vec::new()
    }

    /// The wider variants of `options`: option sets under which every line of play here can
    /// be played (an option that only adds moves, put on; drawing one card where this variant
    /// draws three), so a deal lost there (every reachable position searched) is lost here.
    /// `--search wider` proves losses there that this variant's own graph is too large for.
    /// None unless a game lists some.
    fn wider(_options: &OptionValues) -> Vec<OptionValues> {
        Vec::new()
    }

    /// The legal moves that play `mv` (a legal move here) from `wider`, the same position
    /// under a variant this one is narrower than (`Game::narrower`, `Game::wider`), appended to
    /// `steps`: `mv` itself, unless that variant spells it otherwise (a deal of three cards is
    /// three deals of one).
    fn widened(&self, mv: Self::Move, _wider: &Self, steps: &mut Vec<Self::Move>) {
        steps.push(mv)
    }

    /// Appends every legal move to `moves`, the more promising first. This is the rules'
    /// word on legality: the checker, perft and the brute-force oracle use it.
    fn legal_moves(&self, moves: &mut Vec<Self::Move>);

    /// The moves the solver tries: the legal moves less those that lead to a position with
    /// the same key as another move's (for example a card to the second of two empty columns).
    fn search_moves(&self, moves: &mut Vec<Self::Move>) {
        self.legal_moves(moves)
    }

    /// The legal moves a player makes to play `mv`, appended to `steps`. A search move may
    /// stand for several (the Harp turns cards from the stock and plays the last one turned as
    /// one search move); a legal move stands for itself. Solutions are written unfolded, so
    /// the checker replays them with `legal_moves` alone.
    fn unfold(&self, mv: Self::Move, steps: &mut Vec<Self::Move>) {
        steps.push(mv)
    }

    /// The position the solver searches from. By default the position itself; a game may
    /// search a coarser view whose positions each stand for a set of positions all winnable
    /// or all not (the Wedge's lower pool), and `realize` turns a line of that view back into
    /// legal moves.
    fn search_start(&self) -> Self {
        *self
    }

    /// The legal moves a player makes to play `line`, a line of search moves from
    /// `start.search_start()`. By default each search move unfolded (`unfold`).
    fn realize(start: &Self, line: &[Self::Move]) -> Vec<Self::Move> {
        let mut position = *start;
        let mut steps = Vec::new();
        for &mv in line {
            let from = steps.len();
            position.unfold(mv, &mut steps);
            for &step in &steps[from..] {
                position = position.play(step);
            }
        }
        steps
    }

    /// How promising the position looks (higher is closer to a win). The solver tries the
    /// more promising moves first; the order changes how fast a win is found, never a verdict.
    fn heuristic(&self) -> i32 {
        0
    }

    /// The game's `n`-th measure of promise (`n` from 2 to `HEURISTICS`; the first is
    /// `heuristic`), for games where beams guided by other measures find other wins
    /// (`Order::BeamSecond` and after). Like the first, it changes which wins are found,
    /// never a verdict. Asked for one it does not have, a game may answer with any of its own.
    fn other_heuristic(&self, _n: usize) -> i32 {
        self.heuristic()
    }

    /// The family of like positions this one belongs to, for games that group them: when the
    /// beam search must cut a layer it keeps only the most promising position of each family,
    /// so that its width goes to positions that differ in more than detail. It changes which
    /// wins the beam finds and how soon, never a verdict. By default no grouping.
    fn family(&self) -> Option<u64> {
        None
    }

    /// The position's layer, for the layered search (`Order::Layered`): a game whose play
    /// only ever goes one way (cards home, cards leaving where they were dealt) splits its
    /// positions into layers, so that the search need hold only one layer's positions at a
    /// time. The contract: positions with equal keys have equal layers, and every search or
    /// safe move leads to a position of the same layer or of a layer of strictly higher
    /// `rank`; and the keys of a position's children (its safe move's, or else its search
    /// moves') depend on its key alone, so that a search from a position reaches the same keys
    /// whichever of its key's positions it starts from. By default every position is in one
    /// layer.
    fn layer(&self) -> Layer {
        Layer::default()
    }

    /// The position with this key, rebuilt from the deal (`self`, the position the search
    /// started from), its interchangeable parts in any order: the layered search holds the
    /// positions waiting for their layer as keys. `None` where the game cannot; such a game
    /// offers no layered search (`LAYERED`).
    fn rebuild(&self, _key: &Self::Key) -> Option<Self> {
        None
    }

    /// For the layered search: a key in 64 bits for the positions of this position's layer,
    /// where the game has one (`LayerKeyer`); every position of the layer gives the same
    /// keyer, or every one `None`. A layer fixes much of a position (the cards home, say), so
    /// its positions can be told apart in fewer bits than `key` spends, and the layer's table
    /// and the entries waiting for it hold more of them in the same memory.
    fn layer_keyer(&self) -> Option<Box<dyn LayerKeyer<Self>>> {
        None
    }

    /// The game from this position as satisfiability problems, for the SAT search
    /// (`Order::Sat`): case `n` (from 0 until `None`) is a formula whose models are won games
    /// of one kind, the cases together taking in every won game, so that every case found
    /// unsatisfiable proves the position lost. Each comes with the reading of its models as a
    /// winning line of legal moves. `None` at once where the game gives none for this
    /// position (always, unless `FORMULAS`).
    fn formula(&self, _case: usize) -> Option<Formula<Self>> {
        None
    }

    /// A move that can be played without losing a win, if there is one: when the position is
    /// winnable, so is the position after this move. It must also make irreversible progress
    /// (for example a card to the foundations), so that the search, which then tries only
    /// this move, still terminates and still finds a win whenever one exists.
    fn safe_move(&self) -> Option<Self::Move>;

    /// The position after a legal move.
    fn play(&self, mv: Self::Move) -> Self;

    /// Plays a legal move on this position: `play`, for a search that has the position where
    /// the child is to lie already (a game whose positions are large can save the copies).
    fn play_in_place(&mut self, mv: Self::Move) {
        *self = self.play(mv);
    }

    fn is_won(&self) -> bool;

    fn key(&self) -> Self::Key;

    /// The position with its interchangeable parts put in a standard order (for example piles
    /// sorted), written plainly: the brute-force oracle's own symmetry reduction, independent
    /// of the packed `key`, and the strategies' memory of where they have been. Positions with
    /// equal canonical forms have equal keys; positions with different ones share a key only
    /// where the game's rules document proves them equally winnable, within equally many moves
    /// (Klondike's twin runs, and its wastes keyed as fresh passes).
    fn canonical(&self) -> Self {
        *self
    }

    /// The move as text, as `solve` prints it and `verify` reads it back.
    fn move_text(&self, mv: Self::Move) -> String;

    /// The position drawn as text, for people.
    fn layout(&self) -> String;

    /// The counts a player sees at a glance. Strategies judge a move by how it changes them.
    fn tally(&self) -> Tally;

    /// What the book's advice says of a move: above 0 it follows the advice, below 0 it goes
    /// against it, 0 the book is silent. It must be judged only from what a player sees
    /// (never the order of the stock or a face-down card); each game's rules document cites
    /// the sentence each rule follows.
    fn advice(&self, _mv: Self::Move) -> i8 {
        0
    }
}

/// Numbers the positions of one layer (`Game::layer_keyer`), and gives a number's key back.
pub trait LayerKeyer<G: Game> {
    /// The number of a position of the layer: equal numbers exactly when the keys are equal.
    fn number(&self, position: &G) -> u64;
    /// The key of the layer's positions with this number (`number`'s inverse).
    fn key(&self, number: u64) -> G::Key;
    /// How many numbers the layer has: every number is below it.
    fn count(&self) -> u64;
}

/// Where a position lies in the one-way order of play (`Game::layer`): `id` names the layer,
/// and `rank` only grows from layer to layer, so a layer can be searched to the end once every
/// layer of lower rank has been.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Layer {
    pub rank: u32,
    pub id: u128,
}

/// Counts a player sees at a glance, whatever the hidden cards are.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Cards on the foundations (the Wheel: in the circle).
    pub home: u16,
    /// Cards in play lying beneath another card (a pile's cards below its available one, the
    /// waste below its top), which a move may uncover.
    pub covered: u16,
    /// Empty places a card may be moved into (spaces, free cells, vacancies).
    pub spaces: u16,
    /// Cards in the stock.
    pub stock: u16,
}

/// The text of each move of a line played from `start`, search moves unfolded into the legal
/// moves they stand for (`Game::unfold`).
pub fn move_texts<G: Game>(start: &G, line: &[G::Move]) -> Vec<String> {
    let mut position = *start;
    let mut steps = Vec::new();
    let mut texts = Vec::new();
    for &mv in line {
        steps.clear();
        position.unfold(mv, &mut steps);
        for &step in &steps {
            texts.push(position.move_text(step));
            position = position.play(step);
        }
    }
    texts
}

/// The text of each move of a solver's line from `start` (search moves, from
/// `start.search_start()`), realized as the legal moves it stands for (`Game::realize`).
pub fn solution_texts<G: Game>(start: &G, line: &[G::Move]) -> Vec<String> {
    let mut position = *start;
    G::realize(start, line)
        .into_iter()
        .map(|step| {
            let text = position.move_text(step);
            position = position.play(step);
            text
        })
        .collect()
}

/// A family number (`Game::family`) made of more fields than fit in 64 bits: FNV-1a over the
/// fields, fixed so that a beam run finds the same wins on every machine and every version.
/// Two families that share a number are merged, which changes only which wins the beam finds.
pub fn family_hash(fields: impl IntoIterator<Item = u64>) -> u64 {
    fields
        .into_iter()
        .fold(0xcbf2_9ce4_8422_2325, |hash, field| {
            (hash ^ field).wrapping_mul(0x0000_0100_0000_01b3)
        })
}

/// A variant option of a game, exposed on the command line as `--NAME`.
#[derive(Clone, Copy, Debug)]
pub struct VariantOption {
    pub name: &'static str,
    pub help: &'static str,
    pub kind: OptionKind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// A switch, off by default.
    Flag,
    /// A whole number in `min..=max`.
    Number { min: u32, max: u32, default: u32 },
}

impl VariantOption {
    pub fn default_value(&self) -> u32 {
        match self.kind {
            OptionKind::Flag => 0,
            OptionKind::Number { default, .. } => default,
        }
    }
}

/// The values chosen for a game's options (flags as 0 or 1), in the game's option order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionValues {
    values: Vec<(&'static str, u32)>,
}

impl OptionValues {
    /// Every option at its default.
    pub fn defaults(options: &[VariantOption]) -> OptionValues {
        OptionValues {
            values: options
                .iter()
                .map(|o| (o.name, o.default_value()))
                .collect(),
        }
    }

    /// Sets an option, checking it exists and is in range.
    pub fn set(&mut self, options: &[VariantOption], name: &str, value: u32) -> Result<(), String> {
        let option = options
            .iter()
            .find(|o| o.name == name)
            .ok_or_else(|| format!("this game has no option --{name}"))?;
        if let OptionKind::Number { min, max, .. } = option.kind {
            if !(min..=max).contains(&value) {
                return Err(format!("--{name} takes {min} to {max}, not {value}"));
            }
        }
        let slot = self
            .values
            .iter_mut()
            .find(|(n, _)| *n == name)
            .expect("option listed");
        slot.1 = value;
        Ok(())
    }

    pub fn get(&self, name: &str) -> u32 {
        self.values
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| *v)
            .unwrap_or_else(|| panic!("no option {name}"))
    }

    /// The variants with fewer moves by flags alone (`Game::narrower`): each flag of `adding`
    /// (a flag that only adds moves) that is on turned off, and each of `removing` (one that only
    /// takes moves away) that is off turned on, in every combination, the fewest changes
    /// first.
    pub fn with_fewer_moves(
        &self,
        options: &[VariantOption],
        adding: &[&str],
        removing: &[&str],
    ) -> Vec<OptionValues> {
        self.with_flags_switched(options, adding, removing)
    }

    /// The variants with more moves by flags alone (`Game::wider`): each flag of `adding` that
    /// is off turned on, and each of `removing` that is on turned off, in every combination,
    /// the fewest changes first.
    pub fn with_more_moves(
        &self,
        options: &[VariantOption],
        adding: &[&str],
        removing: &[&str],
    ) -> Vec<OptionValues> {
        self.with_flags_switched(options, removing, adding)
    }

    /// Every combination of these switches, the fewest first: each flag of `on_to_off` that is
    /// on turned off, each of `off_to_on` that is off turned on.
    fn with_flags_switched(
        &self,
        options: &[VariantOption],
        on_to_off: &[&str],
        off_to_on: &[&str],
    ) -> Vec<OptionValues> {
        let switches: Vec<(&str, u32)> = on_to_off
            .iter()
            .filter(|name| self.flag(name))
            .map(|&name| (name, 0))
            .chain(
                off_to_on
                    .iter()
                    .filter(|name| !self.flag(name))
                    .map(|&name| (name, 1)),
            )
            .collect();
        let mut subsets: Vec<u32> = (1..1u32 << switches.len()).collect();
        subsets.sort_by_key(|subset| subset.count_ones());
        subsets
            .into_iter()
            .map(|subset| {
                let mut changed = self.clone();
                for (i, &(name, value)) in switches.iter().enumerate() {
                    if subset >> i & 1 == 1 {
                        changed
                            .set(options, name, value)
                            .expect("the game's own flag");
                    }
                }
                changed
            })
            .collect()
    }

    pub fn flag(&self, name: &str) -> bool {
        self.get(name) != 0
    }

    /// The variant's name: the options that differ from their defaults, as `name=value` (flags
    /// by name alone), joined by commas; `standard` when every option is at its default.
    pub fn variant_name(&self, options: &[VariantOption]) -> String {
        let changed: Vec<String> = options
            .iter()
            .zip(&self.values)
            .filter(|(o, (_, v))| *v != o.default_value())
            .map(|(o, (_, v))| match o.kind {
                OptionKind::Flag => o.name.to_string(),
                OptionKind::Number { .. } => format!("{}={v}", o.name),
            })
            .collect();
        if changed.is_empty() {
            "standard".to_string()
        } else {
            changed.join(",")
        }
    }
}

/// One case of a game as a satisfiability problem (`Game::formula`).
pub struct Formula<G: Game> {
    pub cnf: Cnf,
    /// The winning line from the position that a model of `cnf` describes.
    pub line: LineOfModel<G>,
}

/// Reads a model as a winning line.
pub type LineOfModel<G> = Box<dyn Fn(&Model) -> Vec<<G as Game>::Move>>;
