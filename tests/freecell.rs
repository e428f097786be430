//! FreeCell against its published, exhaustive answers, and the optimised solver against the
//! brute-force oracle. Every win is replayed by the independent checker.

mod common;

use common::{check_layers, solve_checked, within};
use patience::card::Card;
use patience::deal::{microsoft, shuffled};
use patience::game::{Game, Layer, OptionValues, Tally, VariantOption};
use patience::games::freecell::FreeCell;
use patience::oracle::{brute_force_winnable, perft};
use patience::solver::{solve, Budget, Order, Verdict};

fn options(cells: u32) -> OptionValues {
    let mut options = OptionValues::defaults(FreeCell::OPTIONS);
    options.set(FreeCell::OPTIONS, "cells", cells).unwrap();
    options
}

fn deal(cells: u32, cards: &[Card]) -> FreeCell {
    FreeCell::deal(&options(cells), cards).unwrap()
}

/// The oracle file: for each Microsoft deal 1..32000, the fewest cells that win it.
fn min_cells() -> Vec<u32> {
    let text = include_str!("data/ms32000-min-freecells.txt");
    text.lines()
        .map(|line| line.split_whitespace().nth(1).unwrap().parse().unwrap())
        .collect()
}

#[test]
fn deal_11982_is_lost_and_1_617_are_won() {
    let lost = solve_checked(
        &deal(4, &microsoft(11982).unwrap()),
        Order::BestFirst,
        Budget::default(),
    );
    assert_eq!(lost.verdict, Verdict::Lost);
    let lost_dfs = solve_checked(
        &deal(4, &microsoft(11982).unwrap()),
        Order::DepthFirst,
        Budget::default(),
    );
    assert_eq!(lost_dfs.verdict, Verdict::Lost);
    for number in [1, 617] {
        for order in [Order::BestFirst, Order::DepthFirst] {
            let won = solve_checked(
                &deal(4, &microsoft(number).unwrap()),
                order,
                Budget::default(),
            );
            assert_eq!(won.verdict, Verdict::Won, "deal {number}");
        }
    }
}

/// Playing every card that can go home loses these two wins; the safe-move rule must not.
#[test]
fn deals_1941_and_98714_are_won_so_the_safe_move_rule_keeps_wins() {
    for number in [1941, 98714] {
        for order in [Order::BestFirst, Order::DepthFirst] {
            let outcome = solve_checked(
                &deal(4, &microsoft(number).unwrap()),
                order,
                Budget::default(),
            );
            assert_eq!(outcome.verdict, Verdict::Won, "deal {number}");
        }
    }
}

#[test]
fn budgets_give_unknown_never_lost() {
    let hard = deal(4, &microsoft(1).unwrap());
    let outcome = solve(&hard, Order::DepthFirst, within(50));
    assert_eq!(outcome.verdict, Verdict::Unknown);
    let outcome = solve(&hard, Order::Portfolio, within(50));
    assert_eq!((outcome.verdict, outcome.nodes), (Verdict::Unknown, 50));
    // Depth-first enters a position's children when it finds them, so these budgets are
    // overrun among the deal's own children, before any frame is pushed: still unknown.
    for nodes in 2..=4 {
        let outcome = solve(&hard, Order::DepthFirst, within(nodes));
        assert_eq!((outcome.verdict, outcome.nodes), (Verdict::Unknown, nodes));
    }
    let four_kib = Budget {
        max_nodes: None,
        max_memory: Some(4096),
        ..Budget::default()
    };
    for order in [Order::BestFirst, Order::DepthFirst] {
        assert_eq!(solve(&hard, order, four_kib).verdict, Verdict::Unknown);
    }
}

/// Move-path counts from fixed deals: any change to move generation shows here.
#[test]
fn perft_is_pinned() {
    let ms1 = deal(4, &microsoft(1).unwrap());
    let counts: Vec<u64> = (1..=4).map(|d| perft(&ms1, d)).collect();
    assert_eq!(counts, PERFT_MS1);
    let seed7 = deal(2, &shuffled(7, 1));
    let counts: Vec<u64> = (1..=4).map(|d| perft(&seed7, d)).collect();
    assert_eq!(counts, PERFT_SEED7_2CELLS);
}
const PERFT_MS1: [u64; 4] = [32, 792, 13996, 155184];
const PERFT_SEED7_2CELLS: [u64; 4] = [20, 277, 2602, 21606];

/// A reduced pack: the cards of rank `max_rank` and below, in the order seed `seed` shuffles them.
fn reduced(seed: u64, max_rank: u8) -> Vec<Card> {
    shuffled(seed, 1)
        .into_iter()
        .filter(|c| c.rank() <= max_rank)
        .collect()
}

#[test]
fn solver_agrees_with_brute_force_on_reduced_deals() {
    let (mut won, mut lost) = (0, 0);
    for seed in 0..300 {
        let (cells, max_rank) =
            [(0, 7), (0, 8), (0, 9), (0, 10), (1, 6), (1, 9)][seed as usize % 6];
        let position = deal(cells, &reduced(seed, max_rank));
        let truth = brute_force_winnable(&position);
        for order in [
            Order::Portfolio,
            Order::BestFirst,
            Order::DepthFirst,
            Order::DepthFirstPlain,
        ] {
            let outcome = solve_checked(&position, order, Budget::default());
            let expected = if truth { Verdict::Won } else { Verdict::Lost };
            assert_eq!(
                outcome.verdict, expected,
                "seed {seed}, {cells} cells, ranks to {max_rank}, {order:?}"
            );
        }
        if truth {
            won += 1
        } else {
            lost += 1
        }
    }
    // The sample must hold both answers to be a test of either.
    assert!(won > 30 && lost > 30, "won {won}, lost {lost}");
}

/// The continuous-integration slice of the published results: every deal the oracle says is
/// lost is proven lost, no winnable deal is called lost, every win replays, and few deals are
/// left unknown under the budget.
fn check_slice(cells: u32, deals: std::ops::RangeInclusive<u64>, order: Order, max_unknown: usize) {
    use rayon::prelude::*;
    let oracle = min_cells();
    let budget = Budget {
        max_nodes: Some(3_000_000),
        max_memory: Some(1 << 30),
        ..Budget::default()
    };
    let results: Vec<(u64, Verdict)> = deals
        .into_par_iter()
        .map(|n| {
            (
                n,
                solve_checked(&deal(cells, &microsoft(n).unwrap()), order, budget).verdict,
            )
        })
        .collect();
    let mut unknown = 0;
    for (n, verdict) in results {
        let winnable = oracle[n as usize - 1] <= cells;
        match verdict {
            Verdict::Lost => assert!(
                !winnable,
                "deal {n} with {cells} cells was called lost but can be won"
            ),
            Verdict::Won => assert!(
                winnable,
                "deal {n} with {cells} cells was called won but cannot be"
            ),
            Verdict::Unknown => {
                assert!(
                    winnable,
                    "deal {n} with {cells} cells is lost but was not proven so"
                );
                unknown += 1;
            }
        }
    }
    assert!(
        unknown <= max_unknown,
        "{unknown} deals unknown with {cells} cells"
    );
}

#[test]
fn microsoft_1_to_2000_with_four_cells() {
    check_slice(4, 1..=2000, Order::Portfolio, 3);
}

#[test]
fn microsoft_1_to_150_with_three_cells() {
    check_slice(3, 1..=150, Order::Portfolio, 3);
}

#[test]
fn microsoft_1_to_150_with_two_cells() {
    check_slice(2, 1..=150, Order::Portfolio, 6);
}

/// The brute-force oracle, independently of the solver, on the deals the table says are lost:
/// the one four-cell loss, and every two-cell loss among deals 1 to 200.
#[test]
fn brute_force_confirms_the_published_losses() {
    use rayon::prelude::*;
    assert!(!brute_force_winnable(&deal(4, &microsoft(11982).unwrap())));
    let oracle = min_cells();
    let lost: Vec<u64> = (1..=200u64)
        .filter(|&n| oracle[n as usize - 1] > 2)
        .collect();
    assert!(lost.len() > 20);
    lost.par_iter().for_each(|&n| {
        assert!(
            !brute_force_winnable(&deal(2, &microsoft(n).unwrap())),
            "deal {n}"
        )
    });
}

/// Two-cell deals 17760 and 19671, winnable by the published table, are won by the beam,
/// whose families are FreeCell's layers (`Game::family`); without families it left both
/// unknown at 150M positions and more. The wins replay.
#[test]
fn the_beam_wins_the_hardest_two_cell_deals() {
    let budget = Budget {
        max_nodes: Some(40_000_000),
        max_memory: Some(2 << 30),
        ..Budget::default()
    };
    for n in [17760, 19671] {
        let outcome = solve_checked(&deal(2, &microsoft(n).unwrap()), Order::Beam, budget);
        assert_eq!(outcome.verdict, Verdict::Won, "deal {n}");
    }
}

/// The beam search proves nothing once it has cut a layer: deal 11982 (lost) within a budget
/// is unknown, and without a budget the beam widens until it has seen the whole graph.
#[test]
fn the_beam_says_lost_only_after_seeing_the_whole_graph() {
    let lost = deal(4, &microsoft(11982).unwrap());
    let cut_short = solve(&lost, Order::Beam, within(5_000));
    assert_eq!(cut_short.verdict, Verdict::Unknown);
    assert_eq!(
        solve(&lost, Order::Beam, Budget::default()).verdict,
        Verdict::Lost
    );
}

/// The layered search agrees with brute force on reduced deals, and its wins replay. It finds
/// a win only once every layer of lower rank is searched, so the winnable deals it must win
/// are small ones; on larger deals it must prove each loss, and a winnable one within a budget
/// may be unknown but never lost.
/// FreeCell without its in-layer keys, so that the layered search keys every layer by the
/// game's keys: the path a layer takes when its numbers would not fit 64 bits.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct Unnumbered(FreeCell);

impl Game for Unnumbered {
    type Move = <FreeCell as Game>::Move;
    type Key = <FreeCell as Game>::Key;
    const NAME: &'static str = FreeCell::NAME;
    const SUMMARY: &'static str = FreeCell::SUMMARY;
    const PACKS: usize = FreeCell::PACKS;
    const OPTIONS: &'static [VariantOption] = FreeCell::OPTIONS;
    const LAYERED: bool = FreeCell::LAYERED;

    fn deal(options: &OptionValues, order: &[Card]) -> Result<Self, String> {
        FreeCell::deal(options, order).map(Unnumbered)
    }
    fn legal_moves(&self, moves: &mut Vec<Self::Move>) {
        self.0.legal_moves(moves)
    }
    fn search_moves(&self, moves: &mut Vec<Self::Move>) {
        self.0.search_moves(moves)
    }
    fn unfold(&self, mv: Self::Move, steps: &mut Vec<Self::Move>) {
        self.0.unfold(mv, steps)
    }
    fn heuristic(&self) -> i32 {
        self.0.heuristic()
    }
    fn family(&self) -> Option<u64> {
        self.0.family()
    }
    fn layer(&self) -> Layer {
        self.0.layer()
    }
    fn rebuild(&self, key: &Self::Key) -> Option<Self> {
        self.0.rebuild(key).map(Unnumbered)
    }
    fn safe_move(&self) -> Option<Self::Move> {
        self.0.safe_move()
    }
    fn play(&self, mv: Self::Move) -> Self {
        Unnumbered(self.0.play(mv))
    }
    fn is_won(&self) -> bool {
        self.0.is_won()
    }
    fn key(&self) -> Self::Key {
        self.0.key()
    }
    fn canonical(&self) -> Self {
        Unnumbered(self.0.canonical())
    }
    fn move_text(&self, mv: Self::Move) -> String {
        self.0.move_text(mv)
    }
    fn layout(&self) -> String {
        self.0.layout()
    }
    fn tally(&self) -> Tally {
        self.0.tally()
    }
}

/// The layered search against brute force on 240 reduced deals, by the game's own keying
/// (in-layer numbers where they fit) and by `wrap`'s.
fn layered_agrees_with_brute_force<G: Game>(wrap: impl Fn(FreeCell) -> G) {
    let (mut won, mut lost) = (0, 0);
    for seed in 0..240 {
        let (cells, max_rank) =
            [(0, 4), (1, 4), (0, 5), (2, 4), (0, 9), (0, 10)][seed as usize % 6];
        let position = wrap(deal(cells, &reduced(seed, max_rank)));
        let truth = brute_force_winnable(&position);
        let budget = Budget {
            max_nodes: (max_rank > 5).then_some(20_000),
            ..Budget::default()
        };
        let outcome = solve_checked(&position, Order::Layered, budget);
        let label = format!("seed {seed}, {cells} cells, ranks to {max_rank}");
        match outcome.verdict {
            Verdict::Won => assert!(truth, "{label}: won but lost by brute force"),
            Verdict::Lost => assert!(!truth, "{label}: lost but won by brute force"),
            Verdict::Unknown => assert!(truth && max_rank > 5, "{label}: unknown"),
        }
        match outcome.verdict {
            Verdict::Won => won += 1,
            Verdict::Lost => lost += 1,
            Verdict::Unknown => {}
        }
    }
    eprintln!("won {won}, lost {lost}");
    assert!(won > 60 && lost > 30, "won {won}, lost {lost}");
}

#[test]
fn the_layered_search_agrees_with_brute_force() {
    layered_agrees_with_brute_force(|position| position);
}

#[test]
fn the_layered_search_agrees_with_brute_force_by_game_keys() {
    layered_agrees_with_brute_force(Unnumbered);
}

/// The layered search's contract along random games of MS deals 1-40 (`check_layers`),
/// in-layer keys included.
#[test]
fn layers_only_rise_and_keys_rebuild_positions() {
    let (mut checked, mut in_layer) = (0, 0);
    for n in 1..=40u64 {
        let (moves, keyed) = check_layers(&deal(n as u32 % 5, &microsoft(n).unwrap()), n, 60);
        checked += moves;
        in_layer += keyed;
    }
    assert!(checked > 2_000, "{checked} moves checked");
    assert!(in_layer > 1_000, "{in_layer} in-layer keys checked");
}

/// The layered search holds one layer's table at a time: on deal 216 with two cells (lost,
/// 220,655 positions) it proves the loss holding 40% of what the depth-first search holds.
#[test]
fn the_layered_search_proves_a_loss_in_less_memory() {
    let lost = deal(2, &microsoft(216).unwrap());
    let depth_first = solve(&lost, Order::DepthFirst, Budget::default());
    let layered = solve(&lost, Order::Layered, Budget::default());
    assert_eq!(depth_first.verdict, Verdict::Lost);
    assert_eq!(layered.verdict, Verdict::Lost);
    assert_eq!(layered.nodes, depth_first.nodes);
    assert!(
        layered.peak_bytes * 3 < depth_first.peak_bytes * 2,
        "layered {} bytes, depth-first {}",
        layered.peak_bytes,
        depth_first.peak_bytes
    );
    // Keyed by the game's keys, each new layer's set holds its shards' fields from the start:
    // counted as it opens, what the layers hold never runs below zero (it once wrapped round
    // to 16 million TiB), and a memory budget of twice the depth-first search's is enough.
    let keyed = Unnumbered(lost);
    let within_memory = Budget {
        max_memory: Some(depth_first.peak_bytes * 2),
        ..Budget::default()
    };
    let layered = solve(&keyed, Order::Layered, within_memory);
    assert_eq!(layered.verdict, Verdict::Lost);
    assert_eq!(layered.nodes, depth_first.nodes);
    assert!(
        layered.peak_bytes < depth_first.peak_bytes * 2,
        "keyed layers {} bytes, depth-first {}",
        layered.peak_bytes,
        depth_first.peak_bytes
    );
}
