//! Strategies: they see only what a player sees, they play only legal moves, and their wins
//! replay through the independent checker.

use patience::card::Card;
use patience::deal::DealId;
use patience::game::{Game, OptionValues};
use patience::games::{
    self, gate::Gate, harp::Harp, queens::Queens, sedgewick::Sedgewick, terrace::Terrace,
    wedge::Wedge, wheel::Wheel,
};
use patience::strategy::{self, Choice, Ending, Strategy, StrategyKind};

/// A strategy that writes down what it was shown and what it chose.
struct Recorder {
    inner: Box<dyn Strategy>,
    steps: Vec<(Vec<Choice>, usize)>,
}

impl Strategy for Recorder {
    fn choose(&mut self, choices: &[Choice]) -> usize {
        let index = self.inner.choose(choices);
        self.steps.push((choices.to_vec(), index));
        index
    }
}

/// What `kind` was shown and chose, step by step, playing `order` as dealt.
fn trace<G: Game>(order: &[Card], kind: StrategyKind) -> Vec<(Vec<Choice>, usize)> {
    let deal = G::deal(&OptionValues::defaults(G::OPTIONS), order).unwrap();
    let mut recorder = Recorder {
        inner: kind.build(7),
        steps: Vec::new(),
    };
    strategy::play(&deal, &mut recorder);
    recorder.steps
}

/// The steps up to and including the first that takes a card from the stock: until then no
/// hidden card has come into view.
fn before_anything_hidden_shows(steps: &[(Vec<Choice>, usize)]) -> &[(Vec<Choice>, usize)] {
    let end = steps
        .iter()
        .position(|(choices, taken)| choices[*taken].draws > 0)
        .map_or(steps.len(), |i| i + 1);
    &steps[..end]
}

/// Deals of `G` that differ only in the cards from `hidden_from(order)` on (reversed) give
/// every strategy the same choices and the same decisions until a hidden card shows.
fn hidden_cards_change_nothing<G: Game>(hidden_from: impl Fn(&[Card]) -> usize) {
    let mut compared = 0;
    for seed in 0..30 {
        let order = DealId::Seed(seed).cards(G::PACKS).unwrap();
        let mut other = order.clone();
        let first_hidden = hidden_from(&order);
        other[first_hidden..].reverse();
        assert_ne!(order, other);
        for kind in StrategyKind::ALL {
            let (a, b) = (trace::<G>(&order, kind), trace::<G>(&other, kind));
            let (a, b) = (
                before_anything_hidden_shows(&a),
                before_anything_hidden_shows(&b),
            );
            assert_eq!(a, b, "{} seed {seed} {}", G::NAME, kind.name());
            compared += a.len();
        }
    }
    assert!(compared >= 90, "{} compared only {compared} steps", G::NAME);
}

#[test]
fn the_gate_stock_stays_hidden() {
    // Posts and bars: 18 cards; the stock is never seen before it is dealt.
    hidden_cards_change_nothing::<Gate>(|_| 18);
}

#[test]
fn sedgewick_stock_stays_hidden_below_the_card_turned() {
    // The cross and the first foundation card: 6 cards; the stock's top card is the card the
    // player has turned (the rules play it "from the pack"), the rest stay hidden.
    hidden_cards_change_nothing::<Sedgewick>(|_| 7);
}

#[test]
fn the_wedge_stock_stays_hidden_below_the_card_turned() {
    // The 24 cards of the layout, all face up, and the card turned from the pack (played
    // straight from the stock, as in Sedgewick).
    hidden_cards_change_nothing::<Wedge>(|_| 25);
}

#[test]
fn the_harp_stock_stays_hidden_below_the_card_turned() {
    // The 45 cards of the layout (their face-down cards stay as dealt in both deals) and the
    // card turned from the stock.
    hidden_cards_change_nothing::<Harp>(|_| 46);
}

#[test]
fn terrace_stock_stays_hidden_below_the_card_turned() {
    // Terrace 13, turned 3, valley 7, and the card turned from the pack.
    hidden_cards_change_nothing::<Terrace>(|_| 24);
}

#[test]
fn queens_stock_stays_hidden_below_the_card_turned() {
    // The key (32), the shutter (7 cards that are not kings: a king goes up and its place
    // takes the next card), and the first card turned from the pack that is not a king.
    hidden_cards_change_nothing::<Queens>(|order| {
        let mut not_kings = 0;
        32 + order[32..]
            .iter()
            .position(|c| {
                not_kings += usize::from(c.rank() != 13);
                not_kings > 8
            })
            .unwrap()
            + 1
    });
}

#[test]
fn the_wheel_stock_stays_hidden() {
    // The first twelve cards that are not aces make the cushion; the rest is stock.
    hidden_cards_change_nothing::<Wheel>(|order| {
        let mut pips_and_courts = 0;
        order
            .iter()
            .position(|c| {
                pips_and_courts += usize::from(c.rank() != 1);
                pips_and_courts > 12
            })
            .unwrap()
    });
}

/// Every strategy, every game, a spread of deals: each game played is legal move by move as
/// the independent checker sees it, ends as the strategy said, and the wins replay as won.
#[test]
fn strategies_play_legal_games_and_their_wins_replay() {
    let mut wins = 0;
    for game in games::all() {
        let options = OptionValues::defaults(game.options());
        for seed in 0..40 {
            let cards = DealId::Seed(seed).cards(game.packs()).unwrap();
            for kind in StrategyKind::ALL {
                let played = game.play(&options, &cards, kind, seed).unwrap();
                let replay = game.replay(&options, &cards, &played.moves).unwrap();
                let context = format!("{} seed {seed} {}: {replay}", game.name(), kind.name());
                assert!(!played.moves.is_empty(), "{context}");
                if played.ending == Ending::Won {
                    assert!(replay.is_won(), "{context}");
                    wins += 1;
                } else {
                    assert!(replay.to_string().contains("not won"), "{context}");
                }
            }
        }
    }
    assert!(wins > 20, "only {wins} wins to check");
}

#[test]
fn random_is_reproducible_and_depends_on_its_seed() {
    let game = games::find("gate").unwrap();
    let options = OptionValues::defaults(game.options());
    let cards = DealId::Seed(1).cards(1).unwrap();
    let play = |seed| {
        game.play(&options, &cards, StrategyKind::Random, seed)
            .unwrap()
            .moves
    };
    assert_eq!(play(5), play(5));
    assert_ne!(play(5), play(6));
}

#[test]
fn greedy_takes_a_foundation_move_first_and_book_follows_its_advice_first() {
    let choice = |home, exposes, spaces, draws, advice| Choice {
        home,
        exposes,
        spaces,
        draws,
        advice,
    };
    let choices = [
        choice(0, 1, 1, 0, 0),
        choice(1, 0, 0, 0, -1),
        choice(0, 0, 0, 1, 0),
        choice(0, 0, 0, 0, 2),
    ];
    assert_eq!(StrategyKind::Greedy.build(0).choose(&choices), 1);
    assert_eq!(StrategyKind::Book.build(0).choose(&choices), 3);
    // Without a foundation move: the move that uncovers or frees the most, then a draw.
    assert_eq!(StrategyKind::Greedy.build(0).choose(&choices[2..]), 0);
    assert_eq!(
        StrategyKind::Greedy
            .build(0)
            .choose(&[choices[2], choices[0]]),
        1
    );
    // Ties go to the first in the rules' move order.
    assert_eq!(
        StrategyKind::Greedy
            .build(0)
            .choose(&[choices[0], choices[0]]),
        0
    );
}
