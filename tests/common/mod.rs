//! Helpers shared by the games' integration tests.
#![allow(dead_code)]

use patience::card::{Card, Suit};
use patience::deal::shuffled;
use patience::game::{solution_texts, Game, OptionValues};
use patience::oracle::brute_force_winnable;
use patience::solver::{solve, Budget, Order, Outcome, Verdict};
use patience::verify::replay;

/// Every search order. Without a budget each is exact: the beam widens until a run cuts no
/// layer, when it has searched the whole graph.
pub const ORDERS: [Order; 9] = [
    Order::Portfolio,
    Order::BestFirst,
    Order::DepthFirst,
    Order::DepthFirstPlain,
    Order::Beam,
    Order::BeamSecond,
    Order::BeamThird,
    Order::BeamFourth,
    Order::BeamFifth,
];

/// The options of `G` with `changes` applied.
pub fn options<G: Game>(changes: &[(&str, u32)]) -> OptionValues {
    let mut options = OptionValues::defaults(G::OPTIONS);
    for &(name, value) in changes {
        options.set(G::OPTIONS, name, value).unwrap();
    }
    options
}

pub fn cards(text: &str) -> Vec<Card> {
    text.split_whitespace()
        .map(|t| Card::parse(t).unwrap_or_else(|| panic!("bad card {t}")))
        .collect()
}

/// A one-pack deal that starts with the cards of `text` and goes on with the rest of the pack
/// in its fresh order (clubs, diamonds, hearts, spades, each ace to king).
pub fn deal_starting(text: &str) -> Vec<Card> {
    let mut order = cards(text);
    let rest: Vec<Card> = patience::card::fresh_packs(1)
        .into_iter()
        .filter(|c| !order.contains(c))
        .collect();
    order.extend(rest);
    order
}

/// A two-pack deal that starts with the cards of `text` and goes on with the rest of the two
/// packs in their fresh order.
pub fn two_pack_deal_starting(text: &str) -> Vec<Card> {
    let mut order = cards(text);
    let mut rest = patience::card::fresh_packs(2);
    for card in &order {
        let at = rest
            .iter()
            .position(|c| c == card)
            .expect("at most two of a card");
        rest.remove(at);
    }
    order.extend(rest);
    order
}

/// The text of every legal move.
pub fn legal_texts<G: Game>(position: &G) -> Vec<String> {
    let mut moves = Vec::new();
    position.legal_moves(&mut moves);
    moves.iter().map(|&mv| position.move_text(mv)).collect()
}

/// Checks that every move of `offered` is legal in `position` and none of `refused` is.
pub fn assert_moves<G: Game>(position: &G, offered: &[&str], refused: &[&str]) {
    let moves = legal_texts(position);
    for text in offered {
        assert!(
            moves.iter().any(|m| m == text),
            "{text} not offered: {moves:?}"
        );
    }
    for text in refused {
        assert!(
            !moves.iter().any(|m| m == text),
            "{text} offered: {moves:?}"
        );
    }
}

/// Plays the legal move with this text, failing the test if there is none.
pub fn play<G: Game>(position: &G, text: &str) -> G {
    let mut moves = Vec::new();
    position.legal_moves(&mut moves);
    let mv = moves
        .iter()
        .find(|&&mv| position.move_text(mv).eq_ignore_ascii_case(text))
        .unwrap_or_else(|| {
            panic!(
                "'{text}' is not legal; legal: {:?}\n{}",
                legal_texts(position),
                position.layout()
            )
        });
    position.play(*mv)
}

/// Plays `deal` moves (one stock card to the waste) while one is legal: the whole stock.
pub fn deal_out_stock<G: Game>(mut position: G) -> G {
    while let Some(text) = legal_texts(&position)
        .into_iter()
        .find(|m| m.starts_with("deal"))
    {
        position = play(&position, &text);
    }
    position
}

/// Asserts that the game's default search wins the standard deal of each of `seeds` within
/// `max_nodes` positions, its move list replayed by the checker.
pub fn default_search_wins<G: Game>(seeds: &[u64], max_nodes: u64) {
    search_wins::<G>(G::SEARCH, seeds, max_nodes);
}

/// As `default_search_wins`, with the search `order`.
pub fn search_wins<G: Game>(order: Order, seeds: &[u64], max_nodes: u64) {
    for &seed in seeds {
        let deal = G::deal(&options::<G>(&[]), &shuffled(seed, G::PACKS)).unwrap();
        let budget = Budget {
            max_nodes: Some(max_nodes),
            ..Budget::default()
        };
        let outcome = solve_checked(&deal, order, budget);
        assert_eq!(outcome.verdict, Verdict::Won, "seed {seed} {order:?}");
    }
}

/// Solves and, for a win, checks the move list by replay from the position.
pub fn solve_checked<G: Game>(position: &G, order: Order, budget: Budget) -> Outcome<G::Move> {
    let outcome = solve(position, order, budget);
    if outcome.verdict == Verdict::Won {
        let texts = solution_texts(position, &outcome.moves);
        let checked = replay(position, &texts);
        assert!(checked.is_won(), "{checked}");
    }
    outcome
}

/// A budget of `nodes` positions and no memory limit.
pub fn within(nodes: u64) -> Budget {
    Budget {
        max_nodes: Some(nodes),
        max_memory: None,
        ..Budget::default()
    }
}

/// Every search order (and the SAT search, where the game gives `position` a formula) agrees
/// with the brute-force oracle on `position` (wins replayed).
pub fn agrees_with_brute_force<G: Game>(position: &G, label: &str) -> bool {
    let expected = brute_force_winnable(position);
    let sat = position.formula(0).is_some().then_some(Order::Sat);
    for order in ORDERS.into_iter().chain(sat) {
        let outcome = solve_checked(position, order, Budget::default());
        let won = outcome.verdict == Verdict::Won;
        assert_ne!(outcome.verdict, Verdict::Unknown, "{label} {order:?}");
        assert_eq!(won, expected, "{label} {order:?}: solver vs brute force");
    }
    // The nested rollouts, plain and adapted, find wins only (a loss only where the position
    // has no move): a win (replayed) where brute force finds one, and never a loss where it
    // finds one.
    for order in [Order::Rollout, Order::AdaptiveRollout] {
        let rollout = solve_checked(position, order, within(20_000));
        let won = rollout.verdict == Verdict::Won;
        assert!(
            expected || !won,
            "{label} {order:?}: won where brute force finds no win"
        );
        assert!(
            !expected || rollout.verdict != Verdict::Lost,
            "{label} {order:?}: lost where brute force finds a win"
        );
    }
    expected
}

/// The oracle and every search order agree on each position; both verdicts must occur often
/// enough (more than 20 times each) for the check to mean something.
pub fn agrees_with_brute_force_on_all<G: Game>(positions: impl Iterator<Item = (String, G)>) {
    let (mut won, mut lost) = (0, 0);
    for (label, position) in positions {
        if agrees_with_brute_force(&position, &label) {
            won += 1;
        } else {
            lost += 1;
        }
    }
    eprintln!("{won} won, {lost} lost");
    assert!(
        won > 20 && lost > 20,
        "both verdicts exercised: {won} won, {lost} lost"
    );
}

/// A seeded one-pack deal reduced to the cards of `suits`, in dealing order.
pub fn reduced_deal(seed: u64, suits: &[Suit]) -> Vec<Card> {
    patience::deal::shuffled(seed, 1)
        .into_iter()
        .filter(|c| suits.contains(&c.suit()))
        .collect()
}

/// A fixed generator of numbers (xorshift), so that test positions are the same every run.
pub struct Picker(u64);

impl Picker {
    pub fn new(seed: u64) -> Picker {
        Picker(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// One of `items`, picked.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[(self.next() % items.len() as u64) as usize]
    }
}

/// Plays up to `count` legal moves, each picked by a fixed generator seeded by `seed`.
pub fn random_moves<G: Game>(position: &mut G, seed: u64, count: usize) {
    let mut picker = Picker::new(seed);
    let mut moves = Vec::new();
    for _ in 0..count {
        moves.clear();
        position.legal_moves(&mut moves);
        if moves.is_empty() || position.is_won() {
            return;
        }
        *position = position.play(*picker.pick(&moves));
    }
}

/// A test position from `deal`: played along the solver's win (if it finds one within 20,000
/// positions) to some way short of its end, how far set by `seed`, then `random` moves picked
/// at random, which often throw the win away; so that both verdicts occur.
pub fn short_of_a_win<G: Game>(deal: &G, seed: u64, random: usize) -> G {
    let budget = Budget {
        max_nodes: Some(20_000),
        max_memory: None,
        ..Budget::default()
    };
    let win = solve(deal, Order::Portfolio, budget);
    let steps = G::realize(deal, &win.moves);
    let mut position = *deal;
    let keep = steps.len().saturating_sub(5 + seed as usize % 40);
    for &step in &steps[..keep] {
        position = position.play(step);
    }
    random_moves(&mut position, seed, random);
    position
}

/// `Game::narrower`'s claim along random games from seeded deals 0..100 (300 moves each at
/// most): under each narrower variant of the variant `changes` names, every legal move is legal
/// here too (by its text), so the two play in step. `--search narrower` replays a narrower
/// variant's win here, so every move that variant allows must be allowed here.
pub fn check_narrower<G: Game>(changes: &[(&str, u32)]) {
    let options = options::<G>(changes);
    let narrower = G::narrower(&options);
    assert!(!narrower.is_empty(), "no narrower variant");
    for narrow in &narrower {
        check_moves_allowed::<G>(narrow, &options);
    }
}

/// `Game::wider`'s claim, where it holds move for move: under the variant `changes` names,
/// every legal move is legal under each wider variant too. `--search wider` takes a loss there
/// for a loss here, so every line of play here must be one there. Returns how many wider
/// variants were checked.
pub fn check_wider<G: Game>(changes: &[(&str, u32)]) -> usize {
    let options = options::<G>(changes);
    let wider = G::wider(&options);
    for wide in &wider {
        check_moves_allowed::<G>(&options, wide);
    }
    wider.len()
}

/// Along random games under `narrow` from seeded deals 0..100 (300 moves each at most), every
/// legal move, as `Game::widened` spells it under `wide`, is legal there too (by its text,
/// step by step), so the two play in step.
fn check_moves_allowed<G: Game>(narrow: &OptionValues, wide: &OptionValues) {
    let mut checked = 0;
    for seed in 0..100u64 {
        let cards = patience::deal::shuffled(seed, G::PACKS);
        let mut there = G::deal(narrow, &cards).unwrap();
        let mut here = G::deal(wide, &cards).unwrap();
        let mut picker = Picker::new(seed);
        for _ in 0..300 {
            let mut moves = Vec::new();
            there.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            let widened: Vec<G> = moves
                .iter()
                .map(|&mv| {
                    let mut steps = Vec::new();
                    there.widened(mv, &here, &mut steps);
                    steps.iter().fold(here, |wide, &step| {
                        let text = wide.move_text(step);
                        assert!(
                            legal_texts(&wide).contains(&text),
                            "{text} (for {}) is refused here\n{}",
                            there.move_text(mv),
                            wide.layout()
                        );
                        play(&wide, &text)
                    })
                })
                .collect();
            let picked = picker.pick(&moves);
            let at = moves
                .iter()
                .position(|mv| mv == picked)
                .expect("a picked move");
            there = there.play(*picked);
            here = widened[at];
            checked += 1;
        }
    }
    assert!(checked > 1000, "{checked} moves");
}

/// The keys of the positions the search tries from `position` (its safe move's, or else its
/// search moves'), sorted.
pub fn children_keys<G: Game>(position: &G) -> Vec<G::Key>
where
    G::Key: Ord,
{
    let mut moves = Vec::new();
    match position.safe_move() {
        Some(mv) => moves.push(mv),
        None => position.search_moves(&mut moves),
    }
    let mut keys: Vec<G::Key> = moves.iter().map(|&mv| position.play(mv).key()).collect();
    keys.sort_unstable();
    keys.dedup();
    keys
}

/// The layered search's contract (`Game::layer`, `Game::rebuild`, `Game::layer_keyer`),
/// checked along a line of up to `steps` search moves from `deal` picked by a generator seeded
/// by `seed`: every move the search tries stays in its layer or rises to a higher rank, and
/// every position reached is rebuilt from its key (with the deal) into one with the same key,
/// layer and children's keys. Where the game keys a layer in 64 bits, every position of the
/// layer reached gives the same function, which gives the rebuilt position the same number
/// (below its count), gives the number's key back, and no two keys one number. Returns how
/// many moves were checked, and how many of them with an in-layer key.
pub fn check_layers<G: Game>(deal: &G, seed: u64, steps: usize) -> (usize, usize)
where
    G::Key: Ord,
{
    let mut picker = Picker::new(seed);
    let mut position = *deal;
    let mut moves = Vec::new();
    let (mut checked, mut in_layer) = (0, 0);
    let mut numbered: std::collections::HashMap<(patience::game::Layer, u64), G::Key> =
        std::collections::HashMap::new();
    for _ in 0..steps {
        moves.clear();
        match position.safe_move() {
            Some(mv) => moves.push(mv),
            None => position.search_moves(&mut moves),
        }
        if moves.is_empty() {
            break;
        }
        let layer = position.layer();
        let keyer = position.layer_keyer();
        for &mv in &moves {
            let child = position.play(mv);
            let to = child.layer();
            assert!(to == layer || to.rank > layer.rank, "{layer:?} to {to:?}");
            let rebuilt = deal.rebuild(&child.key()).expect("a key rebuilds");
            assert!(rebuilt.key() == child.key(), "{}", child.layout());
            assert_eq!(rebuilt.layer(), to, "{}", child.layout());
            assert!(
                children_keys(&rebuilt) == children_keys(&child),
                "{}",
                child.layout()
            );
            checked += 1;
            let own = child.layer_keyer();
            match (&keyer, to == layer) {
                (Some(keyer), true) => {
                    let number = keyer.number(&child);
                    let own = own.expect("every position of a layer has its keyer");
                    assert_eq!(own.number(&child), number, "{}", child.layout());
                    assert_eq!(own.count(), keyer.count(), "{}", child.layout());
                    assert!(number < keyer.count(), "{}", child.layout());
                    assert_eq!(keyer.number(&rebuilt), number, "{}", child.layout());
                    assert!(keyer.key(number) == child.key(), "{}", child.layout());
                    let first = *numbered.entry((to, number)).or_insert(child.key());
                    assert!(
                        first == child.key(),
                        "two keys, one number: {}",
                        child.layout()
                    );
                    in_layer += 1;
                }
                (None, true) => assert!(own.is_none(), "{}", child.layout()),
                (_, false) => {}
            }
        }
        position = position.play(*picker.pick(&moves));
    }
    (checked, in_layer)
}
