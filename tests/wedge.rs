//! The Wedge: Hoffmann's worked example replayed sentence by sentence on the adopted layout
//! (and refused by the layouts the reconstruction rejects), a test per rule (moves that must
//! be offered and moves that must be refused), pinned move-path counts, and the solver against
//! the brute-force oracle.

mod common;
#[path = "../examples/wedge_layouts/narrative.rs"]
mod narrative;

use common::{
    agrees_with_brute_force_on_all, assert_moves, legal_texts, options, play, random_moves,
    reduced_deal, short_of_a_win, solve_checked,
};
use narrative::{narrative, replay, Replay, DEAL};
use patience::card::{parse_deal, Card, Suit};
use patience::deal::shuffled;
use patience::game::{solution_texts, Game};
use patience::games::wedge::{Geometry, Layout, Move, Place, Wedge, ADOPTED};
use patience::oracle::{brute_force_within, perft};
use patience::solver::{Budget, Order, Verdict};

fn deal(order: &[Card]) -> Wedge {
    Wedge::deal(&options::<Wedge>(&[]), order).unwrap()
}

fn replay_on(layout: Layout) -> Replay {
    let geometry: &'static Geometry = Box::leak(Box::new(layout.geometry()));
    let order = parse_deal(DEAL, 1).unwrap();
    replay(Wedge::with_geometry(geometry, &order).unwrap())
}

/// The sentence of the narrative a layout first fails at.
fn fails_at(layout: Layout) -> &'static str {
    match replay_on(layout) {
        Replay::Won(_) => panic!("{layout:?} fits the whole narrative"),
        Replay::Failed(sentence) => narrative()[sentence].0,
    }
}

/// The example's moves in our notation, as the narrative replay finds them on the adopted
/// layout (`docs/rules/wedge.md` maps them to the text), up to the last one it narrates.
const HOFFMANN: &[&str] = &[
    "9D 23>24", "8C 18>24", "2H 21>23", "4H 21>18", "deal 2D", "deal TS", "deal 5S", "3C s>21",
    "2H 23>21", "4D 21>23", "AC s>h", "AD s>h", "deal 7C", "deal JD", "deal 4S", "deal JH",
    "5C s>21", "4D 23>21", "6D 21>23", "6C 21>8", "AH 21>h", "JH w>21", "7H 8>1", "4S w>8",
    "3D 22>8", "5D 17>1", "4S 8>1", "JD w>17", "7C w>22", "6D 23>22", "5S w>23", "TS w>21",
    "2D w>h", "QH s>7", "JC 20>7", "4C s>20", "2H 22>h", "2C s>h", "3C 22>h", "4C 20>h", "3D 1>h",
    "9S s>8", "KD s>20", "QS 21>20", "6S 21>5", "KC 6>16", "TH 3>7", "KS 7>3", "9S 8>3", "AS s>h",
    "2S s>h", "8D s>6", "8H s>7", "6H s>8", "7S s>21", "8D 6>9", "8H 7>3", "5S 23>8", "4H 18>8",
    "7C 22>3", "7S 21>9", "TC 24>17", "6H 8>9", "7D 5>17", "9H 4>20", "3H 2>h", "3S s>h",
];

#[test]
fn hoffmanns_worked_example_replays_on_the_adopted_layout_and_ends_won() {
    let order = parse_deal(include_str!("data/wedge-hoffmann.txt"), 1).unwrap();
    assert_eq!(order, parse_deal(DEAL, 1).unwrap());
    let start = deal(&order);
    let Replay::Won(found) = replay_on(ADOPTED) else {
        panic!("the narrative does not replay on the adopted layout");
    };
    assert_eq!(&found[..HOFFMANN.len()], HOFFMANN);
    let mut position = start;
    for text in HOFFMANN {
        position = play(&position, text);
    }
    // "All the foundation packets can be built up in succession from exposed cards".
    let rest = solve_checked(&position, Order::DepthFirst, Budget::default());
    assert_eq!(rest.verdict, Verdict::Won, "{}", position.layout());
    let mut whole: Vec<String> = HOFFMANN.iter().map(|t| t.to_string()).collect();
    whole.extend(solution_texts(&position, &rest.moves));
    assert!(patience::verify::replay(&start, &whole).is_won());
}

#[test]
fn the_layouts_the_reconstruction_rejects_fail_the_narrative() {
    // Row 4 in front of row 5: the 9 of diamonds (23) lies behind the 8 of clubs (18).
    let row_4_in_front = Layout {
        lower_front: 3,
        ..ADOPTED
    };
    assert_eq!(
        fails_at(row_4_in_front),
        "Build the 9 of diamonds upon the 10 of clubs."
    );
    // Row 5 half a card to the right: 21 lies over 16 and 17, and 20 is covered too.
    let half_card = Layout {
        offsets: [0, 2, 0, 0, 1],
        ..ADOPTED
    };
    assert!(replay_on(half_card).is_failed());
    // The upper part closed until the split: the 6 of clubs cannot go on the 7 of hearts.
    let closed = Layout {
        upper_open_before_split: false,
        ..ADOPTED
    };
    assert_eq!(
        fails_at(closed),
        "The 7 of hearts might now be built upon the 8 of clubs"
    );
    // The king rule from the start: the 4 of hearts cannot go into 18.
    let kings_early = Layout {
        kings_only_before_split: true,
        ..ADOPTED
    };
    assert!(fails_at(kings_early).starts_with("We have now two spaces"));
    // B on the 7 of hearts' position (8): it moves onto the 8 of spades.
    let b_on_8 = Layout {
        fixed: 1 | 1 << 7,
        ..ADOPTED
    };
    assert_eq!(
        fails_at(b_on_8),
        "The 7 of hearts might now be built upon the 8 of clubs"
    );
}

trait Failed {
    fn is_failed(&self) -> bool;
}

impl Failed for Replay {
    fn is_failed(&self) -> bool {
        matches!(self, Replay::Failed(_))
    }
}

/// A deal whose 24 layout cards are given row by row; the stock is the rest of the pack in
/// its fresh order (clubs, diamonds, hearts, spades, each ace to king).
fn layout(text: &str) -> Wedge {
    deal(&common::deal_starting(text))
}

/// Rows: 1 QD 3H TH 9H | 2 7D KC KS 7H 9C | 3 4D 6D 6C QH QS 6S | 4 4H 5D 8C KH TD |
/// 5 2H 3D 9D TC. B at 1 (QD) and 9 (9C). Stock from AC; its last two cards are TS, JS.
const BOARD: &str = "QD 3H TH 9H 7D KC KS 7H 9C 4D 6D 6C QH QS 6S 4H 5D 8C KH TD 2H 3D 9D TC";

#[test]
fn only_uncovered_cards_move_and_the_middle_row_never_does() {
    let position = layout(BOARD);
    let moves = legal_texts(&position);
    // 9D (23, in front) on TC (24); 8C (18) lies behind 9D and cannot move yet.
    assert!(moves.contains(&"9D 23>24".to_string()), "{moves:?}");
    assert!(!moves.iter().any(|m| m.starts_with("8C")), "{moves:?}");
    // The middle row (4D 6D 6C QH QS 6S) and the upper part under it are closed.
    for card in [
        "4D", "6D", "6C", "QH", "QS", "6S", "7D", "KC", "7H", "9C", "QD",
    ] {
        assert!(
            !moves.iter().any(|m| m.starts_with(card)),
            "{card}: {moves:?}"
        );
    }
    // Nothing is built on a covered card: 8C (18) would take 7D or 7H by rank and colour.
    assert!(!moves.iter().any(|m| m.ends_with(">18")), "{moves:?}");
    let released = play(&position, "9D 23>24");
    // Before the split any card may go into a vacancy, even one in front of its own place.
    assert_moves(
        &released,
        &["8C 18>24", "8C 18>23"],
        &["8C 18>20", "8C 18>22"],
    );
}

#[test]
fn building_is_down_in_alternate_colours_and_sequences_move_whole() {
    let position = play(&layout(BOARD), "9D 23>24");
    let moves = legal_texts(&position);
    // 2H (21) on 3D (22)? Same colour: refused. 9D on TD? Not alternate colours.
    assert!(!moves.contains(&"2H 21>22".to_string()), "{moves:?}");
    assert!(!moves.contains(&"9D 24>20".to_string()), "{moves:?}");
    // 8C (18) on 9D (same pile as TC, at 24): black on red, one lower.
    let built = play(&position, "8C 18>24");
    // The run TC 9D 8C moves as one into the vacancy at 23, and from the 9D down as well.
    assert_moves(&built, &["TC 24>23", "9D 24>23", "8C 24>23"], &[]);
    let moved = play(&built, "TC 24>23");
    assert_eq!(moved.pile(22).len(), 3, "{}", moved.layout());
}

#[test]
fn emptying_21_shifts_the_wedge_on_at_once() {
    let mut position = layout(BOARD);
    for text in ["9D 23>24", "8C 18>24", "2H 21>23"] {
        position = play(&position, text);
    }
    // 16 (4H) dropped to 21, 10 (4D) to 16, and the middle row moved one place left.
    assert_eq!(position.pile(20), [Card::parse("4H").unwrap()]);
    assert_eq!(position.pile(15), [Card::parse("4D").unwrap()]);
    assert_eq!(position.middle_row().len(), 5);
    // Position 21 is never left empty, and 15 (the Wedge's old place) is no position now.
    assert!(!position.is_vacant(20) && !position.is_vacant(14));
    // The 9C (position 9, a B card) is uncovered now: it may be built on.
    assert!(
        position.layout().contains(" 9B 9C  (open)"),
        "{}",
        position.layout()
    );
}

/// The worked example played up to (not including) its move numbered `moves`.
fn hoffmann_after(moves: usize) -> Wedge {
    let order = parse_deal(DEAL, 1).unwrap();
    HOFFMANN[..moves]
        .iter()
        .fold(deal(&order), |position, text| play(&position, text))
}

fn index_of(text: &str) -> usize {
    HOFFMANN.iter().position(|m| *m == text).unwrap()
}

#[test]
fn the_wedge_reaches_21_after_seven_shifts_and_the_board_splits() {
    let waiting = hoffmann_after(index_of("QS 21>20"));
    let six = Card::parse("6S").unwrap();
    assert!(waiting.middle_row().is_empty() && !waiting.is_split());
    assert_eq!(waiting.pile(15), [six], "the Wedge waits at 16");
    // Before the split the Wedge never moves, though nothing lies over 16 but 21.
    assert!(!legal_texts(&waiting).iter().any(|m| m.starts_with("6S")));
    let split = play(&waiting, "QS 21>20");
    assert!(split.is_split());
    assert_eq!(split.pile(20), [six], "the Wedge at 21");
    assert!(split.is_vacant(15));
    // Now an ordinary card: it goes on the 7 of diamonds.
    assert_moves(&split, &["6S 21>5"], &[]);
}

#[test]
fn after_the_split_the_upper_rows_take_only_a_king_from_the_board() {
    // Before the split a non-king goes into a row-4 vacancy: the example's 4 of hearts.
    assert_moves(&hoffmann_after(index_of("4H 21>18")), &["4H 21>18"], &[]);
    // After it, 16 (row 4) takes the king of clubs from the board, or any card from the
    // stock, but not the 6 of spades or the 10 of hearts from the board.
    let position = play(&hoffmann_after(index_of("6S 21>5")), "6S 21>5");
    assert!(position.is_vacant(15));
    let moves = legal_texts(&position);
    assert_moves(&position, &["KC 6>16", "AS s>16"], &["TH 3>16"]);
    for m in moves.iter().filter(|m| m.ends_with(">16")) {
        assert!(
            m.starts_with('K') || m.contains(" s>") || m.contains(" w>"),
            "{m}"
        );
    }
    // A vacancy in row 2 (6, once the king of clubs leaves) takes any card from the board.
    let row_2 = play(&position, "KC 6>16");
    assert_moves(&row_2, &["TH 3>6"], &[]);
}

#[test]
fn b_cards_are_built_on_but_never_moved_except_home() {
    let mut position = layout(BOARD);
    for text in ["9D 23>24", "8C 18>24", "2H 21>23"] {
        position = play(&position, text);
    }
    // The 9 of clubs (position 9, B) is open and would fit on the 10 of diamonds (20).
    assert!(
        position.layout().contains(" 9B 9C  (open)"),
        "{}",
        position.layout()
    );
    assert_moves(&position, &[], &["9C 9>20", "9C 9>h"]);
    // Without the B mark on 9 the same move is legal.
    let free: &'static Geometry = Box::leak(Box::new(
        Layout {
            fixed: 1,
            ..ADOPTED
        }
        .geometry(),
    ));
    let mut unfixed = Wedge::with_geometry(free, &common::deal_starting(BOARD)).unwrap();
    for text in ["9D 23>24", "8C 18>24", "2H 21>23"] {
        unfixed = play(&unfixed, text);
    }
    assert_moves(&unfixed, &["9C 9>20"], &[]);
    // In the example the 8 of spades (1, B) takes the 7 of hearts, and both B cards go home
    // at the end ("7H 8>1", "8S 1>h", "9C 9>h" in its replay).
    let Replay::Won(moves) = replay_on(ADOPTED) else {
        panic!()
    };
    for text in ["7H 8>1", "8S 1>h", "9C 9>h"] {
        assert!(moves.iter().any(|m| m == text), "{text}");
    }
}

#[test]
fn the_stock_passes_once() {
    let mut position = layout(BOARD);
    while let Some(text) = legal_texts(&position)
        .into_iter()
        .find(|m| m.starts_with("deal"))
    {
        position = play(&position, &text);
    }
    assert!(position.layout().contains("stock: 0 cards"));
    assert!(!legal_texts(&position).iter().any(|m| m.starts_with("deal")));
    // The waste's top (JS, the last dealt) may fill a vacancy; the card below it may not.
    let spaced = play(&position, "9D 23>24");
    assert_moves(&spaced, &["JS w>23"], &["TS w>23"]);
}

#[test]
fn aces_go_home_and_foundations_follow_suit() {
    let position = layout(BOARD);
    let moves = legal_texts(&position);
    assert!(moves.contains(&"AC s>h".to_string()), "{moves:?}");
    let home = play(&position, "AC s>h");
    // 2C is next in the stock, but the 2H at 21 is not its suit's next card.
    assert_moves(&home, &["2C s>h"], &["2H 21>h"]);
}

#[test]
fn move_path_counts_are_pinned() {
    let counts: Vec<u64> = (1..=6).map(|d| perft(&deal(&shuffled(1, 1)), d)).collect();
    assert_eq!(counts, PERFT_SEED_1, "seed 1");
    let counts: Vec<u64> = (1..=6).map(|d| perft(&deal(&shuffled(2, 1)), d)).collect();
    assert_eq!(counts, PERFT_SEED_2);
}

const PERFT_SEED_1: [u64; 6] = [2, 8, 40, 214, 1275, 8644];
const PERFT_SEED_2: [u64; 6] = [2, 9, 55, 351, 2381, 17350];

/// Test positions: a reduced deal of two whole suits of different colours (24 cards laid out,
/// two in the stock), as dealt or near the end of the solver's win, then a few legal moves
/// chosen by a fixed generator.
fn reduced_position(seed: u64) -> Wedge {
    let suits: &[Suit] = match seed % 4 {
        0 => &[Suit::CLUBS, Suit::HEARTS],
        1 => &[Suit::SPADES, Suit::DIAMONDS],
        2 => &[Suit::CLUBS, Suit::DIAMONDS],
        _ => &[Suit::SPADES, Suit::HEARTS],
    };
    let mut position = deal(&reduced_deal(seed, suits));
    if seed % 2 == 1 {
        let win = solve_checked(&position, Order::DepthFirst, Budget::default());
        let steps = Wedge::realize(&position, &win.moves);
        let keep = steps.len().saturating_sub(3 + seed as usize % 12);
        for &mv in &steps[..keep] {
            position = position.play(mv);
        }
    }
    random_moves(&mut position, seed, (seed % 7) as usize);
    position
}

/// The Wedge's graph is too large for the oracle even on two suits, once vacancies let runs
/// wander; so the oracle decides the positions whose whole graph holds at most 30,000
/// positions (chosen by count, so the same ones every run), and every search order must agree
/// with it on each. At least 200 positions, with both verdicts more than 20 times.
#[test]
fn the_solver_agrees_with_brute_force_on_reduced_positions() {
    let decided: Vec<(String, Wedge)> = (0..1000u64)
        .map(|seed| (seed, reduced_position(seed)))
        .filter(|(_, position)| brute_force_within(position, 30_000).is_some())
        .take(200)
        .map(|(seed, position)| (format!("seed {seed}"), position))
        .collect();
    assert_eq!(decided.len(), 200);
    agrees_with_brute_force_on_all(decided.into_iter());
}

/// The key takes alike pairs of positions (a front over a back, as 17 over 22) in a standard
/// order. That is sound only if a position and its twin with the pairs' contents traded play
/// alike: the same moves, up to the trade, to positions that again share keys. Checked move by
/// move on positions before and after the split, from full deals played along a win and at
/// random.
#[test]
fn positions_whose_alike_pairs_trade_contents_play_alike() {
    let successor_keys = |position: &Wedge| {
        let mut moves = Vec::new();
        position.legal_moves(&mut moves);
        let mut keys: Vec<_> = moves.iter().map(|&mv| position.play(mv).key()).collect();
        keys.sort_unstable();
        keys
    };
    let (mut before_split, mut after_split) = (0, 0);
    for seed in 0..800u64 {
        let dealt = deal(&shuffled(seed, 1));
        let mut position = if seed % 2 == 0 {
            short_of_a_win(&dealt, seed, (seed % 5) as usize)
        } else {
            dealt
        };
        random_moves(&mut position, seed, (seed % 9 + seed % 2 * 30) as usize);
        let twin = position.canonical();
        if twin == position {
            continue;
        }
        assert_eq!(position.key(), twin.key(), "seed {seed}");
        assert_eq!(
            successor_keys(&position),
            successor_keys(&twin),
            "seed {seed}"
        );
        assert_eq!(position.safe_move().is_some(), twin.safe_move().is_some());
        assert_eq!(position.is_won(), twin.is_won());
        if position.is_split() {
            after_split += 1;
        } else {
            before_split += 1;
        }
    }
    assert!(
        before_split >= 50 && after_split >= 50,
        "{before_split} before, {after_split} after the split"
    );
}

/// The pool view rests on this: before the split, while a place of the lower pool (17 to 20,
/// 22 to 24) is vacant, whole-run moves within the pool reach every arrangement of its runs
/// in its seven places (7!/(7-k)! for k runs). Checked by breadth-first search over the legal
/// moves of positions with one to three vacancies there.
#[test]
fn with_a_vacancy_in_the_pool_every_arrangement_of_its_runs_is_reachable() {
    const POOL: [usize; 7] = [16, 17, 18, 19, 21, 22, 23];
    let arrangement = |p: &Wedge| POOL.map(|i| p.pile(i));
    let mut checked = 0;
    for seed in 0..400u64 {
        let mut position = deal(&shuffled(seed, 1));
        random_moves(&mut position, seed, 5 + (seed % 20) as usize);
        let runs = POOL.iter().filter(|&&i| !position.is_vacant(i)).count();
        if position.is_split() || runs == 7 || runs < 4 {
            continue;
        }
        let mut seen = std::collections::HashSet::from([arrangement(&position)]);
        let mut queue = vec![position];
        let mut moves = Vec::new();
        while let Some(at) = queue.pop() {
            moves.clear();
            at.legal_moves(&mut moves);
            for &mv in &moves {
                if let Move::Shift {
                    card,
                    from: Place::Pile(f),
                    to: Place::Pile(t),
                } = mv
                {
                    let (f, t) = (f as usize, t as usize);
                    let whole = at.pile(f).first() == Some(&card);
                    if POOL.contains(&f) && POOL.contains(&t) && at.is_vacant(t) && whole {
                        let next = at.play(mv);
                        if seen.insert(arrangement(&next)) {
                            queue.push(next);
                        }
                    }
                }
            }
        }
        let expected: usize = (8 - runs..=7).product();
        assert_eq!(seen.len(), expected, "seed {seed}: {runs} runs");
        checked += 1;
    }
    assert!(checked >= 30, "{checked} positions");
}
