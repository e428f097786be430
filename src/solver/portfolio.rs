//! The portfolio (`Order::Portfolio`): the exhaustive orders taking turns.

use super::best_first::BestFirst;
use super::depth_first::DepthFirst;
use super::*;

/// The portfolio's first turn for each order, in positions; each round doubles it.
const FIRST_TURN_NODES: u64 = 10_000;

/// The three orders in turn (`in_turns`); where they spend the budget, the SAT search, for a
/// game that gives formulas: a deal whose graph is too large to search whole is often a
/// small formula.
pub(super) fn portfolio<G: Game>(deal: &G, budget: Budget) -> Outcome<G::Move> {
    let searched = in_turns(deal, budget);
    if searched.verdict != Verdict::Unknown || !G::FORMULAS {
        return searched;
    }
    let decided = super::sat::satisfiability(deal, budget);
    if decided.verdict == Verdict::Unknown {
        return searched;
    }
    Outcome {
        nodes: searched.nodes,
        table_entries: searched.table_entries,
        peak_bytes: searched.peak_bytes.max(decided.peak_bytes),
        ..decided
    }
}

/// The three orders take turns, each going on from where it stopped, with turns that double
/// each round, until one answers. Each is a complete search, so a "lost" from any of them is
/// a proof. They share a node budget (their positions add up); under a memory budget each
/// counts what the other two hold.
fn in_turns<G: Game>(deal: &G, budget: Budget) -> Outcome<G::Move> {
    let each = Budget {
        max_nodes: None,
        first_beam_width: None,
        beam_salt: None,
        max_beam_width: None,
        rollout_level: None,
        max_memory: budget.max_memory,
    };
    const ORDERS: [Order; 3] = [Order::BestFirst, Order::DepthFirst, Order::DepthFirstPlain];
    let mut searches: Vec<Search<G>> = Vec::with_capacity(ORDERS.len());
    let mut turn = FIRST_TURN_NODES;
    loop {
        for (i, order) in ORDERS.into_iter().enumerate() {
            if searches.len() == i {
                searches.push(Search::new(order, deal, each));
            }
            let others = || searches.iter().enumerate().filter(move |&(j, _)| j != i);
            let spent_elsewhere: u64 = others().map(|(_, s)| s.nodes()).sum();
            let entries_elsewhere: usize = others().map(|(_, s)| s.entries()).sum();
            let elsewhere: u64 = others().map(|(_, s)| s.bytes()).sum();
            let allowed = budget
                .max_nodes
                .map_or(u64::MAX, |max| max.saturating_sub(spent_elsewhere));
            let search = &mut searches[i];
            let until = search.nodes().saturating_add(turn).min(allowed);
            if let Some(mut outcome) = search.run(until, elsewhere) {
                outcome.nodes += spent_elsewhere;
                outcome.table_entries += entries_elsewhere;
                outcome.peak_bytes += elsewhere;
                return outcome;
            }
            if search.nodes() >= allowed {
                return Outcome {
                    verdict: Verdict::Unknown,
                    exhausted: Some(Exhausted::Nodes),
                    moves: Vec::new(),
                    nodes: searches.iter().map(Search::nodes).sum(),
                    formulas: 0,
                    table_entries: searches.iter().map(Search::entries).sum(),
                    peak_bytes: searches.iter().map(Search::bytes).sum(),
                };
            }
        }
        turn = turn.saturating_mul(2);
    }
}

/// A search that can stop once it has entered a given number of positions, and go on later
/// from where it stopped.
#[allow(clippy::large_enum_variant)] // one per search, never in a collection
pub(super) enum Search<G: Game> {
    Best(BestFirst<G>),
    Depth(DepthFirst<G>),
}

impl<G: Game> Search<G> {
    /// One of the three exhaustive orders.
    pub(super) fn new(order: Order, deal: &G, budget: Budget) -> Self {
        match order {
            Order::BestFirst => Search::Best(BestFirst::new(deal, budget)),
            Order::DepthFirst => Search::Depth(DepthFirst::new(deal, budget, true)),
            Order::DepthFirstPlain => Search::Depth(DepthFirst::new(deal, budget, false)),
            Order::Portfolio
            | Order::Beam
            | Order::BeamSecond
            | Order::BeamThird
            | Order::BeamFourth
            | Order::BeamFifth
            | Order::Layered
            | Order::Rollout
            | Order::AdaptiveRollout
            | Order::Sat
            | Order::Narrower
            | Order::Wider => {
                unreachable!("{order:?} is not one search")
            }
        }
    }

    /// Searches until an answer, a budget spent (both `Some`), or `until` positions entered
    /// (`None`: call again to go on). `elsewhere` is memory held by other searches, counted
    /// against the memory budget.
    pub(super) fn run(&mut self, until: u64, elsewhere: u64) -> Option<Outcome<G::Move>> {
        match self {
            Search::Best(search) => search.run(until, elsewhere),
            Search::Depth(search) => search.run(until, elsewhere),
        }
    }

    fn visited(&self) -> &Visited<G> {
        match self {
            Search::Best(search) => &search.visited,
            Search::Depth(search) => &search.visited,
        }
    }

    fn nodes(&self) -> u64 {
        self.visited().nodes
    }

    fn entries(&self) -> usize {
        self.visited().table.len()
    }

    /// The table's bytes and the rest of what the search holds.
    fn bytes(&self) -> u64 {
        let held = match self {
            Search::Best(search) => search.held_bytes(),
            Search::Depth(search) => search.held_bytes(),
        };
        self.visited().bytes() + held
    }
}
