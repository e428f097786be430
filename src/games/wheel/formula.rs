//! The Wheel as satisfiability problems (`Game::formula`, `--search sat`): a won game, its
//! first deal's refills included, is a model of a formula, one formula for each stock index
//! where the first deal can end (`docs/rules/wheel.md`, "Decided as a formula").
//!
//! The first deal is a run of combinations, each taking four cards, one from each of four
//! positions, and putting the next four stock cards on the positions it vacated in ascending
//! order. After it every card's place is fixed (deal `d` puts card `s + 12(d - 1) + p` on
//! position `p`), so the rest of the game is a sequence of *slots*, one combination each,
//! each slot lying in the interval after some deal: a card can be taken in a slot once its
//! deal is made and every card dealt onto it since has been taken in an earlier slot.

use super::{value, Move, Wheel, COURT, CUSHION, TRIPLES};
use crate::cnf::{Cnf, Lit, Model};
use crate::game::{Formula, Game};

/// The triples a won game can take (rule 1: never a 3-6-9 or a 5-6-7).
fn won_triples() -> impl Iterator<Item = &'static [u8; 3]> {
    TRIPLES
        .iter()
        .filter(|t| **t != [3, 6, 9] && **t != [5, 6, 7])
}

/// Where the first deal's cards go, and which it takes in each of its combinations.
struct FirstDeal {
    /// `place[i][p]`: card `i` of the order lies on position `p`.
    place: Vec<[Lit; CUSHION]>,
    /// `taken[i][k]`: card `i` goes to the circle in the first deal's combination `k` (from
    /// 1; index 0 unused).
    taken: Vec<Vec<Lit>>,
    /// Card `i` went to the circle during the first deal.
    gone: Vec<Lit>,
}

/// The later game's variables: which slot takes each card, and after which deal each slot is.
struct LaterGame {
    cards: Vec<Placed>,
    /// `by[c][k]`: card `c` is taken in slot `k` or before (index 0: never).
    by: Vec<Vec<Lit>>,
    /// `at_least[k][j]`: slot `k` lies after deal `j` or a later one (j from 0).
    at_least: Vec<Vec<Lit>>,
}

/// A card of the game after the first deal: where it lies and after which deal (0 for the
/// first deal's own, whose value is a variable: `bottom_value`).
#[derive(Clone, Copy)]
struct Placed {
    position: usize,
    deal: usize,
    value: Option<u8>,
}

/// One case's formula, with the variables its models are read by.
struct Encoded {
    cnf: Cnf,
    first: FirstDeal,
    later: Option<LaterGame>,
    /// The first deal's combinations.
    steps: usize,
}

struct Encoder {
    cnf: Cnf,
    values: Vec<u8>,
    deal_any_time: bool,
}

impl Encoder {
    fn no(&self) -> Lit {
        -self.cnf.truth()
    }

    /// The first deal, `steps` combinations long, over its first `entering` cards. (Steps,
    /// slots and deals are numbered as in the rules, so loops run over the numbers.)
    #[allow(clippy::needless_range_loop)]
    fn first_deal(&mut self, steps: usize, entering: usize) -> FirstDeal {
        let placed_at = |i: usize| {
            if i < CUSHION {
                0
            } else {
                (i - CUSHION) / 4 + 1
            }
        };
        let mut place = Vec::with_capacity(entering);
        for i in 0..entering {
            let mut row = [self.no(); CUSHION];
            if i < CUSHION {
                row[i] = self.cnf.truth();
            } else {
                for lit in row.iter_mut() {
                    *lit = self.cnf.var();
                }
                self.cnf.exactly_one(&row);
            }
            place.push(row);
        }
        let mut taken = Vec::with_capacity(entering);
        let mut gone = Vec::with_capacity(entering);
        for i in 0..entering {
            let row: Vec<Lit> = (0..=steps)
                .map(|k| {
                    if k > placed_at(i) {
                        self.cnf.var()
                    } else {
                        self.no()
                    }
                })
                .collect();
            let steps_open: Vec<Lit> = row[placed_at(i) + 1..].to_vec();
            self.cnf.at_most_one(&steps_open);
            gone.push(self.cnf.or(&steps_open));
            taken.push(row);
        }
        for k in 1..=steps {
            let present: Vec<usize> = (0..entering).filter(|&i| placed_at(i) < k).collect();
            let lits_of = |v: u8| -> Vec<Lit> {
                present
                    .iter()
                    .filter(|&&i| self.values[i] == v)
                    .map(|&i| taken[i][k])
                    .collect()
            };
            let by_value: Vec<Vec<Lit>> = (0..=COURT).map(lits_of).collect();
            self.combination(&by_value);
            let vacated: Vec<Lit> = (0..CUSHION)
                .map(|p| {
                    let ways: Vec<Lit> = present
                        .iter()
                        .map(|&i| self.cnf.and(&[taken[i][k], place[i][p]]))
                        .collect();
                    self.cnf.or(&ways)
                })
                .collect();
            // below[q]: exactly q of the positions before the current one were vacated.
            let mut below = [self.no(); 5];
            below[0] = self.cnf.truth();
            for (p, &vacant) in vacated.iter().enumerate() {
                for q in 0..4 {
                    let card = CUSHION + 4 * (k - 1) + q;
                    if card < entering {
                        let here = place[card][p];
                        self.cnf.clause([-here, vacant]);
                        self.cnf.clause([-here, below[q]]);
                        self.cnf.clause([-vacant, -below[q], here]);
                    }
                }
                let mut next = [self.no(); 5];
                for (q, slot) in next.iter_mut().enumerate() {
                    let stay = self.cnf.and(&[below[q], -vacant]);
                    let step = if q > 0 {
                        self.cnf.and(&[below[q - 1], vacant])
                    } else {
                        self.no()
                    };
                    *slot = self.cnf.or(&[stay, step]);
                }
                below = next;
            }
        }
        FirstDeal { place, taken, gone }
    }

    /// The cards one combination takes, given for each value (pip values, then `COURT`) the
    /// literals saying a card of that value is taken: one court card and the three pip values
    /// of one triple a won game takes.
    fn combination(&mut self, by_value: &[Vec<Lit>]) {
        self.cnf.exactly_one(&by_value[COURT as usize]);
        let triples: Vec<Lit> = won_triples().map(|_| self.cnf.var()).collect();
        self.cnf.exactly_one(&triples);
        for v in 2..COURT {
            self.cnf.at_most_one(&by_value[v as usize]);
        }
        for (&chosen, triple) in triples.iter().zip(won_triples()) {
            for v in 2..COURT {
                let lits = &by_value[v as usize];
                if triple.contains(&v) {
                    self.cnf
                        .clause([-chosen].into_iter().chain(lits.iter().copied()));
                } else {
                    for &lit in lits {
                        self.cnf.clause([-chosen, -lit]);
                    }
                }
            }
        }
    }

    /// Under the standard rules, no combination at all (of any triple) among the values whose
    /// literals say which lie on top.
    fn none_possible(&mut self, on_top: &[Vec<Lit>]) {
        if self.deal_any_time {
            return;
        }
        let some: Vec<Lit> = on_top.iter().map(|lits| self.cnf.or(lits)).collect();
        for t in &TRIPLES {
            self.cnf
                .clause(t.iter().chain(&[COURT]).map(|&v| -some[v as usize]));
        }
    }

    /// The game after a first deal that ends with the deal at stock index `s`.
    #[allow(clippy::needless_range_loop)]
    fn later_game(&mut self, first: &FirstDeal, s: usize) -> LaterGame {
        let len = self.values.len();
        // The first deal's end: each position's card is the one placed there and not taken.
        let bottom_value: Vec<Vec<Lit>> = (0..CUSHION)
            .map(|p| {
                (0..=COURT)
                    .map(|v| {
                        let ways: Vec<Lit> = (0..s)
                            .filter(|&i| self.values[i] == v)
                            .map(|i| self.cnf.and(&[first.place[i][p], -first.gone[i]]))
                            .collect();
                        self.cnf.or(&ways)
                    })
                    .collect()
            })
            .collect();
        let on_top: Vec<Vec<Lit>> = (0..=COURT as usize)
            .map(|v| bottom_value.iter().map(|row| row[v]).collect())
            .collect();
        self.none_possible(&on_top);

        let deals = (len - s).div_ceil(CUSHION);
        let slots = (CUSHION + len - s) / 4;
        let mut cards: Vec<Placed> = (0..CUSHION)
            .map(|position| Placed {
                position,
                deal: 0,
                value: None,
            })
            .collect();
        for deal in 1..=deals {
            for position in 0..CUSHION {
                let i = s + CUSHION * (deal - 1) + position;
                if i < len {
                    cards.push(Placed {
                        position,
                        deal,
                        value: Some(self.values[i]),
                    });
                }
            }
        }
        // at_least[k][j] for j in 0..=deals + 1: every slot is after deal 1 at least.
        let at_least: Vec<Vec<Lit>> = (0..=slots)
            .map(|k| {
                (0..=deals + 1)
                    .map(|j| {
                        if j <= 1 {
                            self.cnf.truth()
                        } else if j > deals || k == 0 {
                            self.no()
                        } else {
                            self.cnf.var()
                        }
                    })
                    .collect()
            })
            .collect();
        for k in 1..=slots {
            for j in 2..=deals {
                self.cnf.clause([-at_least[k][j], at_least[k][j - 1]]);
                if k < slots {
                    self.cnf.clause([-at_least[k][j], at_least[k + 1][j]]);
                }
            }
        }
        let by: Vec<Vec<Lit>> = cards
            .iter()
            .map(|_| {
                (0..=slots)
                    .map(|k| if k == 0 { self.no() } else { self.cnf.var() })
                    .collect()
            })
            .collect();
        for row in &by {
            self.cnf.clause([row[slots]]);
            for k in 1..slots {
                self.cnf.clause([-row[k], row[k + 1]]);
            }
        }
        let taken_in: Vec<Vec<Lit>> = by
            .iter()
            .map(|row| {
                (0..=slots)
                    .map(|k| {
                        if k == 0 {
                            self.no()
                        } else {
                            self.cnf.and(&[row[k], -row[k - 1]])
                        }
                    })
                    .collect()
            })
            .collect();
        for (c, card) in cards.iter().enumerate() {
            for k in 1..=slots {
                let here = taken_in[c][k];
                self.cnf
                    .clause([-here, at_least[k][card.deal.min(deals + 1)]]);
                for (c2, above) in cards.iter().enumerate() {
                    if above.position == card.position && above.deal > card.deal {
                        // Dealt onto it by the time of the slot: taken before.
                        self.cnf
                            .clause([-here, -at_least[k][above.deal], by[c2][k - 1]]);
                    }
                }
            }
        }
        for k in 1..=slots {
            let by_value: Vec<Vec<Lit>> =
                (0..=COURT)
                    .map(|v| {
                        cards
                            .iter()
                            .enumerate()
                            .filter_map(|(c, card)| match card.value {
                                Some(value) => (value == v).then_some(taken_in[c][k]),
                                None => Some(self.cnf.and(&[
                                    taken_in[c][k],
                                    bottom_value[card.position][v as usize],
                                ])),
                            })
                            .collect()
                    })
                    .collect();
            self.combination(&by_value);
        }
        // Each later deal comes only when no combination can be made.
        for j in 2..=deals {
            // Taken before deal j: in a slot that lies before it.
            let gone: Vec<Lit> = by
                .iter()
                .map(|row| {
                    let ways: Vec<Lit> = (1..=slots)
                        .map(|k| self.cnf.and(&[row[k], -at_least[k][j]]))
                        .collect();
                    self.cnf.or(&ways)
                })
                .collect();
            let mut on_top: Vec<Vec<Lit>> = vec![Vec::new(); COURT as usize + 1];
            for (c, card) in cards.iter().enumerate() {
                if card.deal >= j {
                    continue;
                }
                let mut top = vec![-gone[c]];
                for (c2, above) in cards.iter().enumerate() {
                    if above.position == card.position && card.deal < above.deal && above.deal < j {
                        top.push(gone[c2]);
                    }
                }
                for v in 0..=COURT {
                    let here = match card.value {
                        Some(value) if value == v => self.cnf.and(&top),
                        Some(_) => continue,
                        None => {
                            let mut with_value = top.clone();
                            with_value.push(bottom_value[card.position][v as usize]);
                            self.cnf.and(&with_value)
                        }
                    };
                    on_top[v as usize].push(here);
                }
            }
            self.none_possible(&on_top);
        }
        LaterGame {
            cards,
            by,
            at_least,
        }
    }
}

impl Wheel {
    /// The values of the deal's cards in dealing order.
    fn order_values(&self) -> Vec<u8> {
        self.order[..self.len as usize]
            .iter()
            .map(|&c| value(c))
            .collect()
    }

    /// Case 0: the first deal runs the stock out and takes every card. Case `n` from 1: the
    /// first deal ends with the deal at stock index `12 + 4(n - 1)`, while that is short of
    /// the end of the stock. Only from the deal itself (none from a later position).
    pub(super) fn sat_formula(&self, case: usize) -> Option<Formula<Wheel>> {
        let Encoded {
            cnf,
            first,
            later,
            steps,
        } = self.encode(case)?;
        let deal = *self;
        let line = move |model: &Model| deal.line_of(model, &first, later.as_ref(), steps);
        Some(Formula {
            cnf,
            line: Box::new(line),
        })
    }

    /// Case `case`'s formula and its variables.
    fn encode(&self, case: usize) -> Option<Encoded> {
        let at_the_deal =
            self.first_deal && self.next as usize == CUSHION && self.circle == [0; 12];
        if !at_the_deal {
            return None;
        }
        let len = self.len as usize;
        let ends_at = (case > 0).then(|| CUSHION + 4 * (case - 1));
        if ends_at.is_some_and(|s| s >= len) {
            return None;
        }
        let mut encoder = Encoder {
            cnf: Cnf::new(),
            values: self.order_values(),
            deal_any_time: self.deal_any_time,
        };
        let (steps, entering) = match ends_at {
            None => (len / 4, len),
            Some(s) => ((s - CUSHION) / 4, s),
        };
        let first = encoder.first_deal(steps, entering);
        let later = match ends_at {
            None => {
                for &gone in &first.gone {
                    encoder.cnf.clause([gone]);
                }
                None
            }
            Some(s) => Some(encoder.later_game(&first, s)),
        };
        Some(Encoded {
            cnf: encoder.cnf,
            first,
            later,
            steps,
        })
    }

    /// Reads a model as moves and plays them, checking each is legal: a model that is not a
    /// won game is a fault in the encoding.
    fn line_of(
        &self,
        model: &Model,
        first: &FirstDeal,
        later: Option<&LaterGame>,
        steps: usize,
    ) -> Vec<Move> {
        let mut position = *self;
        let mut line = Vec::new();
        let play = |position: &mut Wheel, piles: Vec<usize>, line: &mut Vec<Move>| {
            let mv = position.combination_of(&piles);
            let mut legal = Vec::new();
            position.legal_moves(&mut legal);
            assert!(
                legal.contains(&mv),
                "the model's combination {mv:?} is legal"
            );
            *position = position.play(mv);
            line.push(mv);
        };
        for k in 1..=steps {
            let piles = (0..first.taken.len())
                .filter(|&i| model.holds(first.taken[i][k]))
                .map(|i| {
                    (0..CUSHION)
                        .find(|&p| model.holds(first.place[i][p]))
                        .expect("every card has a place")
                })
                .collect();
            play(&mut position, piles, &mut line);
        }
        if let Some(later) = later {
            // Deal 1 ends the first deal; each slot comes after the deal it lies after.
            let mut deals = 0;
            for k in 1..later.by[0].len() {
                let after = later.at_least[k]
                    .iter()
                    .filter(|&&l| model.holds(l))
                    .count()
                    - 1;
                while deals < after {
                    assert!(
                        position.generate_deal_is_legal(),
                        "the model's deal is legal"
                    );
                    position = position.play(Move::Deal);
                    line.push(Move::Deal);
                    deals += 1;
                }
                let piles = (0..later.cards.len())
                    .filter(|&c| model.holds(later.by[c][k]) && !model.holds(later.by[c][k - 1]))
                    .map(|c| later.cards[c].position)
                    .collect();
                play(&mut position, piles, &mut line);
            }
        }
        assert!(position.is_won(), "the model is a won game");
        line
    }

    /// The combination that takes the top cards of these four positions.
    fn combination_of(&self, piles: &[usize]) -> Move {
        assert_eq!(piles.len(), 4, "a combination takes four cards");
        let mut by_value: Vec<(u8, u8)> = piles
            .iter()
            .map(|&p| (value(self.top(p).expect("a card on top")), p as u8))
            .collect();
        by_value.sort_unstable();
        let court = by_value.pop().expect("four cards").1;
        Move::Combine {
            pips: [by_value[0].1, by_value[1].1, by_value[2].1],
            court,
        }
    }

    fn generate_deal_is_legal(&self) -> bool {
        let mut legal = Vec::new();
        self.legal_moves(&mut legal);
        legal.contains(&Move::Deal)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::Suit;
    use crate::cnf::Decision;
    use crate::game::OptionValues;
    use crate::solver::{solve, Budget, Order, Verdict};

    /// What a winning line does, by cards' places in the order: where the first deal ended,
    /// where each refill card went, which first-deal combination took each card, and for each
    /// later combination the deal it came after and the cards it took (position, card).
    #[derive(Default)]
    struct Trace {
        ends_at: Option<usize>,
        placed: Vec<(usize, usize)>,
        first_taken: Vec<(usize, usize)>,
        slots: Vec<(usize, Vec<(usize, usize)>)>,
    }

    fn trace(wheel: &Wheel, line: &[Move]) -> Trace {
        let len = wheel.len as usize;
        let mut piles: Vec<Vec<usize>> = (0..CUSHION).map(|p| vec![p]).collect();
        let (mut next, mut deals, mut step) = (CUSHION, 0, 0);
        let mut trace = Trace::default();
        for &mv in line {
            match mv {
                Move::Deal => {
                    trace.ends_at.get_or_insert(next);
                    deals += 1;
                    for pile in piles.iter_mut() {
                        if next < len {
                            pile.push(next);
                            next += 1;
                        }
                    }
                }
                Move::Combine { pips, court } => {
                    let mut at = [pips[0], pips[1], pips[2], court].map(usize::from);
                    let cards = at.map(|p| piles[p].pop().expect("a card"));
                    if trace.ends_at.is_none() {
                        step += 1;
                        trace.first_taken.extend(cards.iter().map(|&c| (c, step)));
                        at.sort_unstable();
                        for p in at {
                            if next < len {
                                trace.placed.push((next, p));
                                piles[p].push(next);
                                next += 1;
                            }
                        }
                    } else {
                        trace
                            .slots
                            .push((deals, at.into_iter().zip(cards).collect()));
                    }
                }
            }
        }
        trace
    }

    /// Asserts that a won game, read as an assignment of its case's variables, is a model of
    /// that case's formula: the formulas leave out no won game, so an unsatisfiable case
    /// proves the loss.
    fn assert_a_model(wheel: &Wheel, line: &[Move], label: &str) {
        let trace = trace(wheel, line);
        let case = trace.ends_at.map_or(0, |s| (s - CUSHION) / 4 + 1);
        let encoded = wheel.encode(case).expect("the case of a won game");
        let mut assuming: Vec<Lit> = Vec::new();
        assuming.extend(trace.placed.iter().map(|&(i, p)| encoded.first.place[i][p]));
        assuming.extend(
            trace
                .first_taken
                .iter()
                .map(|&(i, k)| encoded.first.taken[i][k]),
        );
        if let (Some(later), Some(s)) = (&encoded.later, trace.ends_at) {
            for (k, (deals, cards)) in trace.slots.iter().enumerate() {
                let k = k + 1;
                let row = &later.at_least[k];
                assuming.extend(row[..=*deals].iter().copied());
                assuming.extend(row.get(deals + 1).map(|&l| -l));
                for &(position, i) in cards {
                    let c = if i < s { position } else { CUSHION + i - s };
                    assert_eq!(later.cards[c].position, position);
                    assuming.push(later.by[c][k]);
                    assuming.push(-later.by[c][k - 1]);
                }
            }
        }
        assert!(
            matches!(
                encoded.cnf.decide(None, &assuming),
                Decision::Satisfiable(_)
            ),
            "{label}: a won game is not a model of its case"
        );
    }

    /// Every win the depth-first search finds (no SAT in it) is a model, on whole deals and
    /// on reduced ones, under both rules.
    #[test]
    fn every_won_game_the_search_finds_is_a_model_of_its_case() {
        let checked = wins_are_models(0..40, 0..200);
        assert!(checked > 150, "{checked} wins checked");
    }

    /// The same over many more deals (minutes): `cargo test --release --lib -- --ignored`.
    #[test]
    #[ignore]
    fn every_won_game_the_search_finds_is_a_model_on_many_more_deals() {
        let checked = wins_are_models(40..1040, 200..2200);
        assert!(checked > 2000, "{checked} wins checked");
    }

    /// Checks each deal's win, where depth-first finds one within 200k positions; the wins
    /// checked.
    fn wins_are_models(whole: std::ops::Range<u64>, reduced: std::ops::Range<u64>) -> usize {
        let budget = Budget {
            max_nodes: Some(200_000),
            ..Budget::default()
        };
        let mut checked = 0;
        for deal_any_time in [false, true] {
            let mut options = OptionValues::defaults(Wheel::OPTIONS);
            options
                .set(Wheel::OPTIONS, "deal-any-time", deal_any_time as u32)
                .expect("an option");
            let whole = whole.clone().map(|seed| crate::deal::shuffled(seed, 2));
            let reduced = reduced.clone().map(|seed| {
                let suits = [[Suit::CLUBS, Suit::HEARTS], [Suit::DIAMONDS, Suit::SPADES]];
                crate::deal::shuffled(seed, 1)
                    .into_iter()
                    .filter(|c| suits[seed as usize % 2].contains(&c.suit()))
                    .collect()
            });
            for (n, order) in whole.chain(reduced).enumerate() {
                let wheel = Wheel::deal(&options, &order).expect("a deal");
                let outcome = solve(&wheel, Order::DepthFirst, budget);
                if outcome.verdict == Verdict::Won {
                    assert_a_model(
                        &wheel,
                        &outcome.moves,
                        &format!("deal {n}, {deal_any_time}"),
                    );
                    checked += 1;
                }
            }
        }
        eprintln!("{checked} wins checked");
        checked
    }

    #[test]
    fn the_won_triples_are_six() {
        assert_eq!(won_triples().count(), 6);
    }

    #[test]
    fn a_deal_has_a_case_for_each_end_of_its_first_deal() {
        let order = crate::deal::shuffled(0, 2);
        let wheel = Wheel::deal(&OptionValues::defaults(Wheel::OPTIONS), &order).expect("a deal");
        let cases = (0..)
            .take_while(|&n| wheel.sat_formula(n).is_some())
            .count();
        // Case 0, then stock indices 12, 16, ..., 92.
        assert_eq!(cases, 1 + 21);
    }
}
