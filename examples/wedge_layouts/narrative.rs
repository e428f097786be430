//! Hoffmann's worked game of the Wedge, sentence by sentence, as steps that name cards (never
//! positions, which the lost diagram would have given), and a replay that finds every way the
//! steps can be played legally on a given layout. Shared by `examples/wedge_layouts` (which
//! tries every layout) and `tests/wedge.rs` (which replays the adopted one).

use patience::card::Card;
use patience::game::Game;
use patience::games::wedge::{Layout, Move, Place, Wedge, ROWS};

/// The example's deal: the layout row by row (positions 1 to 24), then the stock in the order
/// the narrative deals it. The ten of diamonds is never named; it is put where it changes
/// nothing, after the five of hearts (`docs/rules/wedge.md`).
pub const DEAL: &str = "8S 3H TH 9H  7D KC KS 7H 9C  4D 6D 6C AH QS 6S  4H 5D 8C KH JC  2H 3D 9D TC
    2D TS 5S 3C AC AD 7C JD 4S JH 5C QH 4C 2C 9S KD AS 2S 8D 8H 6H 7S 3S 5H TD QC QD JS";

/// Where a card goes.
#[derive(Clone, Copy, Debug)]
pub enum To {
    Home,
    /// Dealt from the stock onto the waste.
    Waste,
    /// Onto the pile whose top is this card.
    Onto(&'static str),
    /// Into a vacancy described so.
    Into(Space),
}

/// A vacancy as the narrative describes it.
#[derive(Clone, Copy, Debug)]
pub enum Space {
    Any,
    /// The one the previous move left.
    Vacated,
    /// In this row (1 to 5).
    Row(usize),
    NextTo(&'static str),
    LeftOf(&'static str),
    /// In the row below this card's, overlapping it.
    Under(&'static str),
    Between(&'static str, &'static str),
    /// The lowest-numbered vacancy ("dealt out in order").
    First,
}

/// What the narrative says holds at a point, without a move.
#[derive(Clone, Copy, Debug)]
pub enum Fact {
    /// The card is in the pile at this position (1 to 24).
    At(&'static str, usize),
    /// The first card lies in the row below the second's, overlapping it ("comes under").
    Beneath(&'static str, &'static str),
    /// The first card's position is in a row above the second's.
    Above(&'static str, &'static str),
    /// This move is legal now (not played).
    Legal(&'static str, To),
    WasteEmpty,
    NoVacancy,
}

#[derive(Clone, Debug)]
pub enum Step {
    /// The card, with what lies on it, goes there.
    Play(&'static str, To),
    /// These moves, in some order.
    AnyOrder(Vec<(&'static str, To)>),
    Check(Fact),
    /// Every card goes home, dealing the stock when nothing else goes: the game must end won.
    Finish,
}

/// The narrative: each sentence of the seed with the steps it gives.
pub fn narrative() -> Vec<(&'static str, Vec<Step>)> {
    use Fact::*;
    use Space::*;
    use Step::*;
    use To::*;
    vec![
        ("Build the 9 of diamonds upon the 10 of clubs.", vec![Play("9D", Onto("TC"))]),
        ("The 8 of clubs, thus released, will go on the 9 of diamonds.", vec![Play("8C", Onto("9D"))]),
        ("We have now two spaces into which we can move, in succession, the 4 of hearts and the 2 of hearts underneath it.",
            vec![AnyOrder(vec![("4H", Into(Any)), ("2H", Into(Any))])]),
        ("Move down the 4 and 6 of diamonds into the two places thus vacated by the hearts",
            vec![Check(At("4D", 21)), Check(At("6D", 16))]),
        ("and shift the middle row to the left, so that the 6 of spades (which is our \"Wedge\") comes under the king of spades.",
            vec![Check(Beneath("6S", "KS"))]),
        ("The 7 of hearts might now be built upon the 8 of clubs", vec![Check(Legal("7H", Onto("8C")))]),
        ("The cards dealt from stock (in order) turn out to be 2 of diamonds, 10 of spades, 5 of spades, 3 of clubs. The first three are useless and are put into the wasteheap; the 3 of clubs is put on 4 of diamonds.",
            vec![Play("2D", Waste), Play("TS", Waste), Play("5S", Waste), Play("3C", Onto("4D"))]),
        ("Move 2 of hearts on to 3 of clubs; then shift the whole sequence of three into the space thus vacated.",
            vec![Play("2H", Onto("3C")), Play("4D", Into(Vacated))]),
        ("The 6 of diamonds and 6 of clubs now descend, and the three remaining cards of the middle row move one place farther to the left.",
            vec![Check(At("6D", 21)), Check(At("6C", 16)), Check(At("AH", 10)), Check(At("6S", 12))]),
        ("Next cards dealt are ace of clubs and ace of diamonds, both of which are put out for foundation cards.",
            vec![Play("AC", Home), Play("AD", Home)]),
        ("Next come 7 of clubs, knave of diamonds, 4 of spades, knave of hearts, 5 of clubs. The first four are put on to the wasteheap; the 5 of clubs goes on 6 of diamonds, and on these goes the 2-of-hearts-to-4-of-diamonds sequence.",
            vec![Play("7C", Waste), Play("JD", Waste), Play("4S", Waste), Play("JH", Waste),
                 Play("5C", Onto("6D")), Play("4D", Onto("5C"))]),
        ("Now the whole sequence of 5 cards is moved into the space under the 4 of hearts, and we release the 6 of clubs.",
            vec![Play("6D", Into(Under("4H")))]),
        ("This will go upon the 7 of hearts,", vec![Play("6C", Onto("7H"))]),
        ("so that we can put out the ace of hearts, bring down the queen of spades to the lefthand place in the bottom row, and dissolve the middle row altogether by getting the \"Wedge\" into the lowest row but one.",
            vec![Play("AH", Home), Check(At("QS", 21)), Check(At("6S", 16))]),
        ("From the wasteheap move the top card, the knave of hearts, upon the queen of spades.",
            vec![Play("JH", Onto("QS"))]),
        ("Put the 6 of clubs and 7 of hearts upon the 8 of spades, exposed in the upper segment.",
            vec![Play("7H", Onto("8S"))]),
        ("Fill their place with the 4 of spades from the wasteheap, and on the 4 build the 3 of diamonds.",
            vec![Play("4S", Into(Vacated)), Play("3D", Onto("4S"))]),
        ("The 5 of diamonds, thus exposed, goes on the 6 of clubs; the 3 of diamonds and 4 of spades go on the 5 of diamonds.",
            vec![Play("5D", Onto("6C")), Play("4S", Onto("5D"))]),
        ("Fill the spaces from the wasteheap, the top one with knave of diamonds, the lower one with 7 of clubs,",
            vec![Play("JD", Into(Any)), Play("7C", Into(Any)), Check(Above("JD", "7C"))]),
        ("on which place the sequence from 2 of hearts to 6 of diamonds.", vec![Play("6D", Onto("7C"))]),
        ("Put the 5 of spades into the space in bottom row;", vec![Play("5S", Into(Row(5)))]),
        ("then 10 of spades on knave of hearts, and the 2 of diamonds will go out on the ace, exhausting the wasteheap.",
            vec![Play("TS", Onto("JH")), Play("2D", Home), Check(WasteEmpty)]),
        ("The next card dealt is queen of hearts; put her on king of spades; and on her the knave of clubs.",
            vec![Play("QH", Onto("KS")), Play("JC", Onto("QH"))]),
        ("Deal 4 of clubs into the space vacated by the knave of clubs; put out 2 of hearts on the ace.",
            vec![Play("4C", Into(Vacated)), Play("2H", Home)]),
        ("The 2 of clubs, which you deal next, goes out, as well as the 3 and 4 of same suit.",
            vec![Play("2C", Home), Play("3C", Home), Play("4C", Home)]),
        ("Also put out the 3 of diamonds, but not the 4 as yet", vec![Play("3D", Home)]),
        ("Deal the 9 of spades into space next to knave of clubs, and the king of diamonds into space next to king of hearts.",
            vec![Play("9S", Into(NextTo("JC"))), Play("KD", Into(NextTo("KH")))]),
        ("On the king of diamonds place the sequence from 10 to queen of spades.", vec![Play("QS", Onto("KD"))]),
        ("The \"Wedge,\" coming down into bottom row, becomes an ordinary exposed card and is put on the 7 of diamonds.",
            vec![Check(At("6S", 21)), Play("6S", Onto("7D"))]),
        ("Into the space on left of knave of diamonds you can now move one of the kings that are blocking the game in the upper segment of the board. Choose the king of clubs,",
            vec![Play("KC", Into(LeftOf("JD")))]),
        ("as you can then move the 10 of hearts upon the knave of clubs.", vec![Play("TH", Onto("JC"))]),
        ("Into the space thus vacated between the 9 and 3 of hearts move the 10-of-hearts-to-king-of-spades sequence.",
            vec![Play("KS", Into(Between("9H", "3H")))]),
        ("Put 9 of spades on 10 of hearts.", vec![Play("9S", Onto("TH"))]),
        ("Now deal from stock to fill up all the vacancies. The cards you get are ace of spades, 2 of spades, 8 of diamonds, 8 of hearts, 6 of hearts, 7 of spades. The two first go out for a foundation packet; the other four, dealt out in order",
            vec![Play("AS", Home), Play("2S", Home), Play("8D", Into(First)), Play("8H", Into(First)),
                 Play("6H", Into(First)), Play("7S", Into(First)), Check(NoVacancy)]),
        ("Put 8 of diamonds on 9 of clubs, and 8 of hearts on 9 of spades.",
            vec![Play("8D", Onto("9C")), Play("8H", Onto("9S"))]),
        ("Put 5 of spades on 6 of hearts, which releases the 4 of hearts, to go on the 5 of spades.",
            vec![Play("5S", Onto("6H")), Play("4H", Onto("5S"))]),
        ("The sequence from 4 of diamonds to 7 of clubs goes on the 8 of hearts; the 7 of spades goes on the 8 of diamonds.",
            vec![Play("7C", Onto("8H")), Play("7S", Onto("8D"))]),
        ("The sequence from 8 to 10 of clubs will go on knave of diamonds, and the sequence from 4 to 6 of hearts on 7 of spades.",
            vec![Play("TC", Onto("JD")), Play("6H", Onto("7S"))]),
        ("The 6 of spades and 7 of diamonds go on the 8 of clubs; the 9 of hearts on 10 of spades.",
            vec![Play("7D", Onto("8C")), Play("9H", Onto("TS"))]),
        ("You have now unblocked all the board, and can put out the 3 of hearts on to its foundation packet.",
            vec![Play("3H", Home)]),
        ("As the card next dealt is the 3 of spades (which goes out), and the next the 5 of hearts, the game is won.",
            vec![Play("3S", Home), Finish]),
    ]
}

fn card(text: &str) -> Card {
    Card::parse(text).unwrap_or_else(|| panic!("bad card {text}"))
}

/// How far a replay got: the sentence it could not play, or the moves of a whole game.
#[derive(Clone, Debug)]
pub enum Replay {
    Won(Vec<String>),
    /// The index of the sentence no choice of vacancies got past.
    Failed(usize),
}

/// A position of the replay: the game, the moves so far, and the position the last move left.
#[derive(Clone)]
struct Point {
    game: Wedge,
    moves: Vec<String>,
    left: Option<usize>,
}

impl Point {
    fn play(&self, mv: Move) -> Point {
        let mut moves = self.moves.clone();
        moves.push(self.game.move_text(mv));
        let left = match mv {
            Move::Shift {
                from: Place::Pile(p),
                ..
            } => Some(p as usize),
            _ => None,
        };
        Point {
            game: self.game.play(mv),
            moves,
            left,
        }
    }
}

fn same_row(a: usize, b: usize) -> Option<(usize, usize)> {
    let ((row_a, index_a), (row_b, index_b)) = (Layout::row_of(a), Layout::row_of(b));
    (row_a == row_b).then_some((index_a, index_b))
}

fn space_fits(point: &Point, space: Space, vacancy: usize) -> bool {
    let game = &point.game;
    let at = |text| game.position_of(card(text)).expect("on the board");
    let layout = &game.geometry().layout;
    match space {
        Space::Any => true,
        Space::Vacated => point.left == Some(vacancy),
        Space::Row(row) => Layout::row_of(vacancy).0 == row - 1,
        Space::NextTo(text) => same_row(vacancy, at(text)).is_some_and(|(v, c)| v.abs_diff(c) == 1),
        Space::LeftOf(text) => same_row(vacancy, at(text)).is_some_and(|(v, c)| v + 1 == c),
        Space::Under(text) => {
            let (over, under) = (Layout::row_of(at(text)), Layout::row_of(vacancy));
            under.0 == over.0 + 1 && layout.overlaps(over, under)
        }
        Space::Between(a, b) => [a, b]
            .iter()
            .all(|&text| same_row(vacancy, at(text)).is_some_and(|(v, c)| v.abs_diff(c) == 1)),
        Space::First => (0..vacancy).all(|p| !game.is_vacant(p)),
    }
}

/// The legal moves that play `text` to `to`.
fn matching(point: &Point, text: &str, to: To) -> Vec<Move> {
    let game = &point.game;
    let wanted = card(text);
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    moves.retain(|&mv| match (mv, to) {
        (Move::Deal, To::Waste) => game.move_text(mv) == format!("deal {wanted}"),
        (
            Move::Shift {
                card, to: place, ..
            },
            _,
        ) if card == wanted => match (place, to) {
            (Place::Home, To::Home) => true,
            (Place::Pile(p), To::Onto(target)) => {
                game.pile(p as usize).last() == Some(&self::card(target))
            }
            (Place::Pile(p), To::Into(space)) => {
                game.pile(p as usize).is_empty() && space_fits(point, space, p as usize)
            }
            _ => false,
        },
        _ => false,
    });
    moves
}

fn holds(point: &Point, fact: Fact) -> bool {
    let game = &point.game;
    let at = |text| game.position_of(card(text));
    let layout = &game.geometry().layout;
    match fact {
        Fact::At(text, position) => at(text) == Some(position - 1),
        Fact::Beneath(a, b) => match (at(a), at(b)) {
            (Some(a), Some(b)) => {
                let (under, over) = (Layout::row_of(a), Layout::row_of(b));
                under.0 == over.0 + 1 && layout.overlaps(over, under)
            }
            _ => false,
        },
        Fact::Above(a, b) => match (at(a), at(b)) {
            (Some(a), Some(b)) => Layout::row_of(a).0 < Layout::row_of(b).0,
            _ => false,
        },
        Fact::Legal(text, to) => !matching(point, text, to).is_empty(),
        Fact::WasteEmpty => game.waste_len() == 0,
        Fact::NoVacancy => (0..ROWS[4].0 + ROWS[4].1).all(|p| !game.is_vacant(p)),
    }
}

/// Every point reachable by playing `step` from `point`.
fn after(point: &Point, step: &Step) -> Vec<Point> {
    match step {
        Step::Play(text, to) => matching(point, text, *to)
            .into_iter()
            .map(|mv| point.play(mv))
            .collect(),
        Step::AnyOrder(plays) => {
            let mut out = Vec::new();
            for first in 0..plays.len() {
                let (text, to) = plays[first];
                let rest: Vec<(&'static str, To)> = plays
                    .iter()
                    .enumerate()
                    .filter(|&(i, _)| i != first)
                    .map(|(_, &p)| p)
                    .collect();
                for next in matching(point, text, to)
                    .into_iter()
                    .map(|mv| point.play(mv))
                {
                    if rest.is_empty() {
                        out.push(next);
                    } else {
                        out.extend(after(&next, &Step::AnyOrder(rest.clone())));
                    }
                }
            }
            out
        }
        Step::Check(fact) => {
            if holds(point, *fact) {
                vec![point.clone()]
            } else {
                Vec::new()
            }
        }
        Step::Finish => {
            let mut point = point.clone();
            loop {
                let mut moves = Vec::new();
                point.game.legal_moves(&mut moves);
                let home = moves.iter().find(|m| {
                    matches!(
                        m,
                        Move::Shift {
                            to: Place::Home,
                            ..
                        }
                    )
                });
                match home.or_else(|| moves.iter().find(|m| matches!(m, Move::Deal))) {
                    Some(&mv) => point = point.play(mv),
                    None => break,
                }
            }
            if point.game.is_won() {
                vec![point]
            } else {
                Vec::new()
            }
        }
    }
}

/// Replays the narrative from `deal`, trying every vacancy a step leaves open. Returns the
/// first full game found, or the sentence no branch got past.
pub fn replay(deal: Wedge) -> Replay {
    let steps: Vec<(usize, Step)> = narrative()
        .into_iter()
        .enumerate()
        .flat_map(|(sentence, (_, steps))| steps.into_iter().map(move |s| (sentence, s)))
        .collect();
    let mut deepest = 0;
    let mut stack = vec![(
        0usize,
        Point {
            game: deal,
            moves: Vec::new(),
            left: None,
        },
    )];
    while let Some((index, point)) = stack.pop() {
        let Some((sentence, step)) = steps.get(index) else {
            return Replay::Won(point.moves);
        };
        deepest = deepest.max(*sentence);
        for next in after(&point, step).into_iter().rev() {
            stack.push((index + 1, next));
        }
    }
    Replay::Failed(deepest)
}
