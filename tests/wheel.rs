//! The Wheel: a test per rule (moves that must be offered and moves that must be refused),
//! pinned move-path counts, the pruning's arithmetic, and the solver against the brute-force
//! oracle on reduced packs.

mod common;

use common::{
    agrees_with_brute_force_on_all, assert_moves, cards, check_narrower, check_wider, legal_texts,
    options, play, reduced_deal, solve_checked, two_pack_deal_starting, within, Picker,
};
use patience::card::{Card, Suit};
use patience::deal::shuffled;
use patience::game::Game;
use patience::games::wheel::{can_be_completed, Move, Wheel};
use patience::oracle::{brute_force_within, perft};
use patience::solver::{Budget, Order, Verdict};

/// A two-pack deal that starts with the cards of `text` (twelve for the cushion, then the
/// stock) and goes on with the rest of the two packs in their fresh order.
fn starting(text: &str, deal_any_time: bool) -> Wheel {
    Wheel::deal(
        &options::<Wheel>(&[("deal-any-time", deal_any_time as u32)]),
        &two_pack_deal_starting(text),
    )
    .unwrap()
}

/// Every value 2-10 on the cushion, and a court card.
const CUSHION: &str = "2H 6S TD KC 4C 4D 9H 5S 3C 8D 7H 7S";

#[test]
fn three_different_pip_values_summing_to_eighteen_are_crowned_by_a_court_card() {
    let position = starting(CUSHION, false);
    assert_moves(
        &position,
        &["2H(1) 6S(2) TD(3) KC(4)", "3C(9) 7H(11) 8D(10) KC(4)"],
        &["deal"],
    );
    let moves = legal_texts(&position);
    // 4 + 4 + 10 = 18, but two cards of one value never make a combination; nor do sums
    // other than 18 (2 + 6 + 9).
    assert!(
        !moves
            .iter()
            .any(|m| m.contains("4C(5)") && m.contains("4D(6)")),
        "{moves:?}"
    );
    assert!(
        !moves
            .iter()
            .any(|m| m.contains("2H(1)") && m.contains("6S(2)") && m.contains("9H(7)")),
        "{moves:?}"
    );
    // Every move takes exactly three pip cards and the one court card.
    assert!(moves.iter().all(|m| m.ends_with("KC(4)")), "{moves:?}");
}

#[test]
fn without_a_court_card_no_combination_is_made_and_the_deal_follows() {
    let position = starting("2H 6S TD 4C 4D 9H 5S 3C 8D 7H 7S 2C", false);
    assert_eq!(legal_texts(&position), ["deal"]);
}

#[test]
fn the_first_deal_refills_vacated_positions_at_once_in_order() {
    let position = play(
        &starting(&format!("{CUSHION} QS 3H JD 5C"), false),
        "2H(1) 6S(2) TD(3) KC(4)",
    );
    let text = position.layout();
    for (pile, card) in [(1, "QS"), (2, "3H"), (3, "JD"), (4, "5C")] {
        assert!(
            text.contains(&format!("cushion {pile:>2} (bottom up): {card}\n")),
            "{text}"
        );
    }
    assert!(text.contains("circle: 1 crowned packet\n"), "{text}");
    assert!(text.contains("stock: 80 cards, next"), "{text}");
}

/// No court card in the first twelve; the second deal covers them one by one.
const TWO_DEALS: &str = "2H 6S TD 4C 4D 9H 5S 3C 8D 7H 7S 2C \
                         KC 3D 7C 8C 5C QD 9C 2D 6C TC 4H 5D";

#[test]
fn a_deal_covers_every_position_in_order_and_only_top_cards_are_available() {
    let position = play(&starting(TWO_DEALS, false), "deal");
    let text = position.layout();
    assert!(text.contains("cushion  1 (bottom up): 2H KC\n"), "{text}");
    assert!(text.contains("cushion 12 (bottom up): 2C 5D\n"), "{text}");
    assert!(text.contains("stock: 72 cards"), "{text}");
    assert_moves(
        &position,
        &["2D(8) 6C(9) TC(10) KC(1)", "3D(2) 7C(3) 8C(4) QD(6)"],
        // The 6S and the 9H lie under the 3D and the 9C.
        &[
            "2D(8) 6S(2) TC(10) KC(1)",
            "2D(8) 7C(3) 9H(7) KC(1)",
            "deal",
        ],
    );
}

#[test]
fn after_the_first_deal_vacated_positions_are_not_refilled() {
    let dealt = play(&starting(TWO_DEALS, false), "deal");
    let position = play(&dealt, "2D(8) 6C(9) TC(10) KC(1)");
    let text = position.layout();
    for (pile, cards) in [(1, "2H"), (8, "3C"), (9, "8D"), (10, "7H")] {
        assert!(
            text.contains(&format!("cushion {pile:>2} (bottom up): {cards}\n")),
            "{text}"
        );
    }
    assert!(text.contains("stock: 72 cards"), "{text}");
}

#[test]
fn a_deal_is_refused_while_a_combination_can_be_made_unless_deal_any_time() {
    assert!(!legal_texts(&starting(CUSHION, false)).contains(&"deal".to_string()));
    let any_time = starting(CUSHION, true);
    assert_moves(&any_time, &["deal", "2H(1) 6S(2) TD(3) KC(4)"], &[]);
    // A deal is one move: it lays all twelve cards before anything else may be played.
    let dealt = play(&any_time, "deal");
    assert!(dealt.layout().contains("stock: 72 cards"));
}

#[test]
fn the_last_deal_may_be_short_and_there_is_no_redeal() {
    // Two suits of one pack (a reduced deal): 18 pip cards, 6 court cards.
    let order = cards("2C 6C TC KC 3C 4C 5C 7C 8C 9C 2D 3D 4D 5D 6D 7D 8D 9D TD JC QC JD QD KD");
    let start = Wheel::deal(&options::<Wheel>(&[]), &order).unwrap();
    let refilled = play(&start, "2C(1) 6C(2) TC(3) KC(4)");
    assert_eq!(legal_texts(&refilled), ["deal"]);
    let dealt = play(&refilled, "deal");
    let text = dealt.layout();
    assert!(text.contains("cushion  8 (bottom up): 7C KD\n"), "{text}");
    assert!(text.contains("cushion  9 (bottom up): 8C\n"), "{text}");
    assert!(text.contains("stock: 0 cards"), "{text}");
    assert!(!legal_texts(&dealt).contains(&"deal".to_string()));
}

#[test]
fn the_aces_are_set_aside_and_a_wrong_pack_is_refused() {
    let position = Wheel::deal(&options::<Wheel>(&[]), &shuffled(7, 2)).unwrap();
    assert!(!position.layout().contains('A'), "{}", position.layout());
    let error = Wheel::deal(&options::<Wheel>(&[]), &cards("2C 3C 4C KC")).unwrap_err();
    assert!(error.contains("as many cards of each value"), "{error}");
}

#[test]
fn a_won_game_takes_only_the_six_triples_the_counts_allow() {
    let full = [0, 0, 8, 8, 8, 8, 8, 8, 8, 8, 8];
    assert!(can_be_completed(&full));
    let after = |triples: &[[usize; 3]]| {
        let mut left = full;
        for triple in triples {
            for &v in triple {
                left[v] -= 1;
            }
        }
        can_be_completed(&left)
    };
    assert!(after(&[[2, 6, 10], [2, 7, 9], [3, 7, 8]]));
    assert!(!after(&[[3, 6, 9]]), "3-6-9 is never taken in a won game");
    assert!(!after(&[[5, 6, 7]]), "5-6-7 is never taken in a won game");
    // 2-6-10, 3-7-8 and 4-5-9 are taken s times each, the other three 8 - s times: five
    // 2-6-10s and four 2-7-9s cannot both happen.
    let mut too_many = vec![[2, 6, 10]; 5];
    too_many.extend([[2, 7, 9]; 4]);
    assert!(!after(&too_many));
    assert!(after(&[[0, 0, 0]; 0]));
}

#[test]
fn move_path_counts_are_pinned() {
    let standard = Wheel::deal(&options::<Wheel>(&[]), &shuffled(1, 2)).unwrap();
    let counts: Vec<u64> = (1..=4).map(|d| perft(&standard, d)).collect();
    assert_eq!(counts, [13, 13, 390, 6270]);
    let any_time =
        Wheel::deal(&options::<Wheel>(&[("deal-any-time", 1)]), &shuffled(2, 2)).unwrap();
    let counts: Vec<u64> = (1..=4).map(|d| perft(&any_time, d)).collect();
    assert_eq!(counts, [11, 31, 612, 7530]);
}

/// The seeded two-pack deal, under the standard rules or with `--deal-any-time`.
fn deal(seed: u64, deal_any_time: bool) -> Wheel {
    Wheel::deal(
        &options::<Wheel>(&[("deal-any-time", deal_any_time as u32)]),
        &shuffled(seed, 2),
    )
    .unwrap()
}

#[test]
fn whole_deals_are_won_or_proven_lost_and_the_wins_replay() {
    for seed in [1, 3, 6] {
        let outcome = solve_checked(&deal(seed, false), Order::Portfolio, Budget::default());
        assert_eq!(outcome.verdict, Verdict::Won, "seed {seed}");
    }
    // Seed 2 is lost when a deal must wait until no combination is left, won when it may
    // come at any time.
    let strict = solve_checked(&deal(2, false), Order::Portfolio, Budget::default());
    assert_eq!(strict.verdict, Verdict::Lost);
    let any_time = solve_checked(&deal(2, true), Order::Portfolio, Budget::default());
    assert_eq!(any_time.verdict, Verdict::Won);
}

/// The SAT search (`--search sat`, `docs/rules/wheel.md`, "Decided as a formula") agrees with
/// the portfolio on whole deals under both rules, and decides deals that every search within
/// 60M positions left unknown; its wins replay.
#[test]
fn the_sat_search_agrees_with_the_searches_and_decides_what_they_could_not() {
    let (mut won, mut lost) = (0, 0);
    for deal_any_time in [false, true] {
        for seed in 0..30 {
            let position = deal(seed, deal_any_time);
            let sat = solve_checked(&position, Order::Sat, Budget::default());
            let search = solve_checked(&position, Order::Portfolio, Budget::default());
            assert_ne!(search.verdict, Verdict::Unknown, "seed {seed}");
            assert_eq!(
                sat.verdict, search.verdict,
                "seed {seed}, any time {deal_any_time}"
            );
            if sat.verdict == Verdict::Won {
                won += 1;
            } else {
                lost += 1;
            }
        }
    }
    assert!(won > 10 && lost > 10, "{won} won, {lost} lost");
    for (seed, verdict) in [(11504, Verdict::Lost), (39043, Verdict::Won)] {
        let sat = solve_checked(&deal(seed, false), Order::Sat, Budget::default());
        assert_eq!(sat.verdict, verdict, "seed {seed}");
        // The portfolio hands the SAT search what it leaves unknown.
        let portfolio = solve_checked(&deal(seed, false), Order::Portfolio, within(100_000));
        assert_eq!(portfolio.verdict, verdict, "seed {seed}, the portfolio");
        assert!(portfolio.formulas > 0 && portfolio.nodes >= 100_000);
    }
}

/// Two or three whole suits of one pack (18 or 27 pip cards): small enough for the oracle,
/// and both verdicts occur.
fn reduced_position(seed: u64) -> Wheel {
    let suits: &[Suit] = match seed % 4 {
        0 => &[Suit::CLUBS, Suit::HEARTS],
        1 => &[Suit::DIAMONDS, Suit::SPADES, Suit::HEARTS],
        2 => &[Suit::CLUBS, Suit::DIAMONDS, Suit::SPADES],
        _ => &[Suit::HEARTS, Suit::SPADES],
    };
    let order: Vec<Card> = reduced_deal(seed, suits);
    let deal_any_time = seed.is_multiple_of(5);
    Wheel::deal(
        &options::<Wheel>(&[("deal-any-time", deal_any_time as u32)]),
        &order,
    )
    .unwrap()
}

#[test]
fn the_solver_agrees_with_brute_force_on_reduced_deals() {
    agrees_with_brute_force_on_all(
        (0..200u64).map(|seed| (format!("seed {seed}"), reduced_position(seed))),
    );
}

/// The same cross-check on many more positions, for rare patterns the quick test can miss
/// (minutes on one core): `cargo test --release --test wheel -- --ignored`.
#[test]
#[ignore]
fn the_solver_agrees_with_brute_force_on_many_more_positions() {
    agrees_with_brute_force_on_all(
        (200..2200u64).map(|seed| (format!("seed {seed}"), reduced_position(seed))),
    );
}

/// The search offers no move from `position`, though the rules offer some.
fn assert_doomed_ahead(position: &Wheel) {
    let mut searched = Vec::new();
    position.search_moves(&mut searched);
    assert!(searched.is_empty(), "{}", position.layout());
    assert!(!legal_texts(position).is_empty(), "{}", position.layout());
}

#[test]
fn a_deal_that_leaves_only_three_six_nine_dooms_the_game_before_it_comes() {
    // Clubs, diamonds and hearts. No court card in the first two deals, so each is followed
    // by the next; the third brings 3, 6 and 9 with every court card, and 3-6-9 is never
    // part of a won game.
    let order = cards(
        "2C 2D 2H 4C 4D 4H 7C 7D 7H 8C 8D 8H \
         TC TD TH 5C 5D 5H 3C 6C 9C 3D 6D 9D \
         3H 6H 9H JC QC KC JD QD KD JH QH KH",
    );
    let position = Wheel::deal(&options::<Wheel>(&[]), &order).unwrap();
    assert!(!common::agrees_with_brute_force(&position, "doomed"));
    // After the first deal the doomed third deal is seen ahead; the search by values of the
    // first deal already meets it at its end, so the solver needs only the deal's position.
    assert_doomed_ahead(&play(&position, "deal"));
    let outcome = solve_checked(&position, Order::DepthFirst, Budget::default());
    assert_eq!(outcome.nodes, 1);
}

#[test]
fn a_last_deal_that_allows_no_combination_dooms_the_game_before_it_comes() {
    // Clubs, diamonds and hearts. No court card in the first two deals, so each is followed
    // by the next; the third and last brings every court card but only a 2, a 3 and a 4,
    // which make no triple: no move is left with cards on the cushion.
    let order = cards(
        "5C 5D 5H 6C 6D 6H 7C 7D 7H 8C 8D 8H \
         9C 9D 9H TC TD TH 2D 2H 3D 3H 4D 4H \
         2C 3C 4C JC QC KC JD QD KD JH QH KH",
    );
    for deal_any_time in [false, true] {
        let options = options::<Wheel>(&[("deal-any-time", deal_any_time as u32)]);
        let position = Wheel::deal(&options, &order).unwrap();
        assert!(!common::agrees_with_brute_force(&position, "last deal"));
        // After the first deal the dead last deal is seen ahead; the search by values of the
        // first deal already meets it at its end.
        assert_doomed_ahead(&play(&position, "deal"));
        let outcome = solve_checked(&position, Order::DepthFirst, Budget::default());
        assert_eq!(outcome.nodes, 1, "deal any time: {deal_any_time}");
    }
    // Seed 19's last deal (3D 3D 3H 4C 7C 9D TD and five court cards) makes no triple: proven
    // lost at once, where the search without this test held over 40M positions.
    let seed_19 = Wheel::deal(&options::<Wheel>(&[]), &shuffled(19, 2)).unwrap();
    let outcome = solve_checked(&seed_19, Order::Portfolio, Budget::default());
    assert_eq!(outcome.verdict, Verdict::Lost);
    assert!(outcome.nodes < 100, "{} positions", outcome.nodes);
}

#[test]
fn a_whole_deal_with_no_combination_before_a_short_last_deal_is_seen_ahead() {
    // One pack. The cushion's one combination (2-6-10 crowned by JC) refills positions 1-4
    // from the stock, so the deals after the first start at cards 16, 28 and 40, and the last
    // is short: eight cards, onto positions 1-8. The deal at 28 brings no court card, so the
    // short deal follows at once, and the top cards after it are fixed: its eight court cards
    // and the four sevens of the deal at 28 on positions 9-12. No triple: lost.
    let order = cards(
        "2C 6C TC JC 3C 3D 3H 3S 4C 4D 4H 4S \
         2D 2H 2S 5C \
         QC KC JD 5D 5H 5S 6D 6H 6S 8C 8D 8H \
         8S 9C 9D 9H 9S TD TH TS 7C 7D 7H 7S \
         QD KD JH QH KH JS QS KS",
    );
    let position = Wheel::deal(&options::<Wheel>(&[]), &order).unwrap();
    assert!(!common::agrees_with_brute_force(
        &position,
        "short last deal"
    ));
    // After the combination and the deal at 16 the dead deal at 28 is seen ahead; the search
    // by values of the first deal already meets it at its end.
    let combined = play(&position, &legal_texts(&position)[0]);
    assert_doomed_ahead(&play(&combined, "deal"));
    let outcome = solve_checked(&position, Order::DepthFirst, Budget::default());
    assert_eq!(outcome.nodes, 1);
}

#[test]
fn two_last_deals_that_never_uncover_what_lies_beneath_them_doom_the_game() {
    // Clubs, diamonds and hearts. The first deal and the second hold no court card, so each
    // is followed by the next. The last deal allows one triple, 2-6-10, under any of its nine
    // court cards; whichever is taken, the second deal's 3C 3D 3H and one more card come up
    // beside eight court cards, and no triple is left. No position is ever cleared down to
    // what lay beneath the second deal, so that deal dooms the game, though neither deal
    // alone does (the second allows no combination and is followed by a whole deal; the
    // last allows a triple a won game may take).
    let order = cards(
        "2D 2H 6D 6H TD TH 8C 8D 8H 9C 9D 9H \
         3C 3D 3H 4C 4D 4H 5C 5D 5H 7C 7D 7H \
         2C 6C TC JC QC KC JD QD KD JH QH KH",
    );
    for deal_any_time in [false, true] {
        let options = options::<Wheel>(&[("deal-any-time", deal_any_time as u32)]);
        let position = Wheel::deal(&options, &order).unwrap();
        assert!(!common::agrees_with_brute_force(
            &position,
            "two last deals"
        ));
        // The first deal can end only in the doomed second deal: no move is searched.
        assert_doomed_ahead(&position);
        let outcome = solve_checked(&position, Order::DepthFirst, Budget::default());
        assert_eq!(outcome.nodes, 1, "deal any time: {deal_any_time}");
    }
    // Seed 571 ends the same way (its second-last deal allows no combination, and its last
    // one combination, after which nothing is left): unknown after 60M positions without the
    // rule, lost at the deal with it.
    let seed_571 = Wheel::deal(&options::<Wheel>(&[]), &shuffled(571, 2)).unwrap();
    let outcome = solve_checked(&seed_571, Order::Portfolio, Budget::default());
    assert_eq!((outcome.verdict, outcome.nodes), (Verdict::Lost, 1));
    // With 3C 7C 8C under the triple instead, the 2-6-10 uncovers a 3-7-8, which clears three
    // positions down to the first deal's cards: the rule must let the search go on, and its
    // verdict is brute force's.
    let open = cards(
        "2D 2H 6D 6H TD TH 7H 8D 8H 9C 9D 9H \
         3C 7C 8C 4C 4D 4H 5C 5D 5H 3D 3H 7D \
         2C 6C TC JC QC KC JD QD KD JH QH KH",
    );
    let position = Wheel::deal(&options::<Wheel>(&[]), &open).unwrap();
    let mut searched = Vec::new();
    play(&position, "deal").search_moves(&mut searched);
    assert!(!searched.is_empty());
    common::agrees_with_brute_force(&position, "open cap");
}

#[test]
fn a_first_deal_that_cannot_end_well_is_seen_at_the_deal() {
    // Seed 243: however the first deal is played, it ends with no move or before a doomed
    // deal. The search by values sees it at once, where the full search held 620,450
    // positions (the refills put the same values in ever new places).
    let seed_243 = Wheel::deal(&options::<Wheel>(&[]), &shuffled(243, 2)).unwrap();
    let mut moves = Vec::new();
    seed_243.search_moves(&mut moves);
    assert!(moves.is_empty());
    assert!(!legal_texts(&seed_243).is_empty());
    let outcome = solve_checked(&seed_243, Order::DepthFirst, Budget::default());
    assert_eq!((outcome.verdict, outcome.nodes), (Verdict::Lost, 1));
    // Reduced deals where the rule ends the search at the deal are lost by brute force too.
    let mut seen = 0;
    for seed in 0..400 {
        let position = reduced_position(seed);
        let mut moves = Vec::new();
        position.search_moves(&mut moves);
        if moves.is_empty() && !legal_texts(&position).is_empty() {
            seen += 1;
            assert!(!common::agrees_with_brute_force(
                &position,
                &format!("seed {seed}")
            ));
        }
    }
    assert!(seen >= 10, "only {seen} reduced deals exercise the rule");
}

#[test]
fn once_the_stock_is_out_a_covering_card_is_taken_before_a_lone_one() {
    // Along the first legal line of each reduced deal, every position where the search drops
    // a legal combination once the stock is out (a lone card whose value a covering card also
    // offers, or a second lone card of one value) has the verdict brute force gives it.
    let mut seen = 0;
    for seed in 0..200 {
        let mut position = reduced_position(seed);
        loop {
            let legal = legal_texts(&position);
            let Some(first) = legal.first() else { break };
            let mut searched = Vec::new();
            position.search_moves(&mut searched);
            let dropped = legal
                .iter()
                .filter(|text| !searched.iter().any(|&mv| position.move_text(mv) == **text));
            if position.tally().stock == 0 && dropped.count() > 0 && !searched.is_empty() {
                seen += 1;
                common::agrees_with_brute_force(&position, &format!("seed {seed}"));
            }
            position = play(&position, first);
        }
    }
    assert!(seen >= 10, "only {seen} positions exercise the rule");
}

/// Plays a random line of `position` (picked by `seed`), calling `visit` with each position
/// on it and its legal moves.
fn along_a_random_line(mut position: Wheel, seed: u64, mut visit: impl FnMut(&Wheel, &[Move])) {
    let mut picker = Picker::new(seed);
    let mut legal = Vec::new();
    loop {
        legal.clear();
        position.legal_moves(&mut legal);
        visit(&position, &legal);
        let Some(&mv) = legal.get(picker.next() as usize % legal.len().max(1)) else {
            return;
        };
        position = position.play(mv);
    }
}

/// Asserts that brute force finds `position` lost.
fn assert_lost_by_brute_force(position: &Wheel, seed: u64) {
    assert_eq!(
        brute_force_within(position, 1_000_000),
        Some(false),
        "seed {seed}\n{}",
        position.layout()
    );
}

/// Plays a random line of `position` (picked by `seed`) and checks by brute force that every
/// position on it whose floor is closed, of those `looked_at` takes, is lost. Returns how many
/// closed floors it met: in all, with moves left, and before the last deal.
fn closed_floors_are_lost(position: Wheel, seed: u64, looked_at: fn(&Wheel) -> bool) -> [usize; 3] {
    let mut counts = [0; 3];
    along_a_random_line(position, seed, |position, legal| {
        if looked_at(position) && position.floor_is_closed() {
            counts[0] += 1;
            counts[1] += usize::from(!legal.is_empty());
            counts[2] += usize::from(position.tally().stock > 0);
            assert_lost_by_brute_force(position, seed);
        }
    });
    counts
}

#[test]
fn a_cushion_that_cannot_be_cleared_from_the_bottom_up_after_the_last_deal_is_lost() {
    // Seed 75728, unknown to every pass over the million before the rule (depth-first within
    // 10M among them): every line's last deal leaves bottom cards that no won game ends with.
    let deal = Wheel::deal(&options::<Wheel>(&[]), &shuffled(75728, 2)).unwrap();
    let outcome = solve_checked(&deal, Order::DepthFirst, Budget::default());
    assert_eq!(outcome.verdict, Verdict::Lost);
    assert!(outcome.nodes <= 20_000, "{} positions", outcome.nodes);
    // Along random lines of reduced deals, every position whose floor is closed is lost by
    // brute force, and the rule fires where the rules still offer moves; with the last deal
    // still to come, in one whole pack (48 cards without the aces), whose lines often reach
    // it.
    let mut counts = [0; 3];
    let mut add = |more: [usize; 3]| (0..3).for_each(|i| counts[i] += more[i]);
    for seed in 0..300 {
        add(closed_floors_are_lost(reduced_position(seed), seed, |_| {
            true
        }));
    }
    let whole_pack = [Suit::CLUBS, Suit::DIAMONDS, Suit::HEARTS, Suit::SPADES];
    for seed in 0..1000 {
        let deal = Wheel::deal(&options::<Wheel>(&[]), &reduced_deal(seed, &whole_pack)).unwrap();
        add(closed_floors_are_lost(deal, seed, |p| p.tally().stock > 0));
    }
    let [closed, with_moves, before_the_last_deal] = counts;
    assert!(
        with_moves >= 200 && before_the_last_deal >= 100,
        "only {with_moves} of {closed} closed floors with moves left, {before_the_last_deal} \
         before the last deal"
    );
}

/// Plays a random line of `position` (picked by `seed`) and checks by brute force that
/// wherever the first deal may end with the deal and pruning rule 6 closes what follows, the
/// position after the deal is lost. Returns how many such deals it met.
fn closed_deals_out_are_lost(position: Wheel, seed: u64) -> usize {
    let mut met = 0;
    along_a_random_line(position, seed, |position, legal| {
        let deal = legal.iter().find(|&&mv| position.move_text(mv) == "deal");
        if let Some(&deal) = deal.filter(|_| position.deal_now_runs_out_closed()) {
            met += 1;
            assert_lost_by_brute_force(&position.play(deal), seed);
        }
    });
    met
}

#[test]
fn a_first_deal_whose_last_cards_no_placing_of_its_cushion_can_clear_is_lost() {
    // Seed 54381, unknown to every pass over the million before the rule (depth-first within
    // 10M among them): every first deal ends where the deals after it bury its cards beneath
    // layers that allow no combination, and no placing of those cards clears the cushion.
    let deal = Wheel::deal(&options::<Wheel>(&[]), &shuffled(54381, 2)).unwrap();
    let outcome = solve_checked(&deal, Order::DepthFirst, Budget::default());
    assert_eq!((outcome.verdict, outcome.nodes), (Verdict::Lost, 1));
    // Along random lines of reduced deals and of one whole pack (48 cards without the aces),
    // both variants, every deal that ends the first deal where the rule closes what follows
    // leaves a position that brute force finds lost.
    let whole_pack = [Suit::CLUBS, Suit::DIAMONDS, Suit::HEARTS, Suit::SPADES];
    let mut met = 0;
    for seed in 0..300 {
        met += closed_deals_out_are_lost(reduced_position(seed), seed);
        let options = options::<Wheel>(&[("deal-any-time", u32::from(seed % 2 == 1))]);
        let deal = Wheel::deal(&options, &reduced_deal(seed, &whole_pack)).unwrap();
        met += closed_deals_out_are_lost(deal, seed);
    }
    assert!(met >= 100, "only {met} deals exercise the rule");
}

/// Plays a random line of `position` (picked by `seed`) and checks by brute force that
/// wherever the first deal may end with the deal and pruning rule 7 finds the game after it
/// lost for every placing, the position after the deal is never won: lost wherever brute
/// force can search it. Returns how many such deals it met, how many of them brute force
/// searched, and how many of those rule 6 does not close.
fn closed_for_every_placing_deals_are_lost(position: Wheel, seed: u64) -> [usize; 3] {
    let mut met = [0; 3];
    along_a_random_line(position, seed, |position, legal| {
        let deal = legal.iter().find(|&&mv| position.move_text(mv) == "deal");
        if let Some(&deal) = deal.filter(|_| position.deal_now_closed_for_every_placing(2_000)) {
            let after = position.play(deal);
            let verdict = brute_force_within(&after, 200_000);
            assert_ne!(verdict, Some(true), "seed {seed}\n{}", after.layout());
            met[0] += 1;
            met[1] += usize::from(verdict.is_some());
            met[2] += usize::from(verdict.is_some() && !position.deal_now_runs_out_closed());
        }
    });
    met
}

#[test]
fn a_first_deal_after_which_no_placing_of_its_cushion_wins_is_lost() {
    // Seed 130573, unknown to every pass over the million before the rule (depth-first within
    // 10M among them): the search meets each end of its first deal in many arrangements, and
    // once it has, the game after the deal is lost for every placing of the first deal's cards.
    let deal = Wheel::deal(&options::<Wheel>(&[]), &shuffled(130573, 2)).unwrap();
    let outcome = solve_checked(&deal, Order::DepthFirst, Budget::default());
    assert_eq!(outcome.verdict, Verdict::Lost);
    assert!(outcome.nodes <= 200_000, "{} positions", outcome.nodes);
    closed_for_every_placing_deals_are_lost_along_random_lines(40);
}

/// The same along the random lines of 300 seeds (about five minutes).
#[test]
#[ignore]
fn a_first_deal_after_which_no_placing_of_its_cushion_wins_is_lost_on_more_lines() {
    closed_for_every_placing_deals_are_lost_along_random_lines(300);
}

/// Along random lines of `seeds` reduced deals and as many of one whole pack (48 cards
/// without the aces), both variants: every deal that ends the first deal where the game
/// after it is lost for every placing of the first deal's cards leaves a position that brute
/// force never wins, and finds lost wherever it can search it.
fn closed_for_every_placing_deals_are_lost_along_random_lines(seeds: u64) {
    let whole_pack = [Suit::CLUBS, Suit::DIAMONDS, Suit::HEARTS, Suit::SPADES];
    let mut met = [0; 3];
    let mut add = |more: [usize; 3]| (0..3).for_each(|i| met[i] += more[i]);
    for seed in 0..seeds {
        add(closed_for_every_placing_deals_are_lost(
            reduced_position(seed),
            seed,
        ));
        let options = options::<Wheel>(&[("deal-any-time", u32::from(seed % 2 == 1))]);
        let deal = Wheel::deal(&options, &reduced_deal(seed, &whole_pack)).unwrap();
        add(closed_for_every_placing_deals_are_lost(deal, seed));
    }
    let [closed, searched, beyond_rule_6] = met;
    eprintln!("{closed} closed, {searched} searched, {beyond_rule_6} beyond rule 6");
    assert!(
        searched as u64 >= seeds && beyond_rule_6 as u64 >= seeds / 2,
        "of {closed} deals the rule closes, brute force searched only {searched}, \
         {beyond_rule_6} of them beyond rule 6"
    );
}

/// `--search narrower` replays a narrower variant's win here: every move that variant allows
/// must be allowed here.
#[test]
fn the_narrower_variants_allow_no_move_this_one_refuses() {
    check_narrower::<Wheel>(&[("deal-any-time", 1)]);
}

#[test]
fn positions_that_differ_only_beneath_their_tops_are_one_family() {
    // The same second deal on two first deals that differ in which of two positions holds
    // the 6S and the TD: after the deal the same values lie on top, others beneath.
    let swapped = TWO_DEALS.replacen("6S TD", "TD 6S", 1);
    let (a, b) = (
        play(&starting(TWO_DEALS, false), "deal"),
        play(&starting(&swapped, false), "deal"),
    );
    assert_ne!(a.key(), b.key());
    assert_eq!(a.family(), b.family());
    // Another value on top is another family.
    let other_top = TWO_DEALS.replacen("KC 3D", "KC 4S", 1);
    let c = play(&starting(&other_top, false), "deal");
    assert_ne!(a.family(), c.family());
}

#[test]
fn the_beam_by_families_wins_a_deal_the_other_searches_once_left_unknown() {
    // Seed 485242: unknown to the portfolio within 200k positions and to depth-first and the
    // beam without families within 1M; the beam keeping one position a family wins it in
    // about a thousand, and the checker replays the win. Since the last deal's floor (pruning
    // rule 5) cuts the lines that cannot end, depth-first and the portfolio win it too.
    let deal = Wheel::deal(
        &options::<Wheel>(&[("deal-any-time", 0)]),
        &shuffled(485242, 2),
    )
    .unwrap();
    let budget = Budget {
        max_nodes: Some(20_000),
        ..Budget::default()
    };
    assert_eq!(
        solve_checked(&deal, Order::Beam, budget).verdict,
        Verdict::Won
    );
    for order in [Order::DepthFirst, Order::Portfolio] {
        assert_eq!(solve_checked(&deal, order, budget).verdict, Verdict::Won);
    }
}

/// `--search wider` takes a loss under a wider variant for a loss here: every move this one
/// allows must be allowed there.
#[test]
fn the_wider_variants_refuse_no_move_this_one_allows() {
    assert_eq!(check_wider::<Wheel>(&[]), 1);
}
