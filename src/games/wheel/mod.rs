//! The Wheel (Cadogan): two packs without their aces; twelve cushion piles; three pip cards of
//! different values summing to eighteen, crowned by a court card, leave together for the
//! circle. Rules, decisions, the pruning and its proof: `docs/rules/wheel.md`.

mod formula;

use crate::card::{format_stack, Card, Suit, ACE};
use crate::game::{family_hash, Formula, Game, OptionKind, OptionValues, Tally, VariantOption};
use ahash::{AHashMap, AHashSet};
use std::cell::RefCell;

/// Cushion positions, two rows of six.
const CUSHION: usize = 12;
/// Cards in play: two packs less the eight aces.
const CARDS_MAX: usize = 96;
/// The most cards a cushion pile can hold: the first deal's one, then one from each of at
/// most seven later deals of twelve.
const PILE_MAX: usize = 8;
/// What a pile slot holds in the key: pip values 2..=10, every court card as one value.
const COURT: u8 = 11;
/// The eight triples of different pip values that sum to eighteen.
const TRIPLES: [[u8; 3]; 8] = [
    [2, 6, 10],
    [2, 7, 9],
    [3, 5, 10],
    [3, 6, 9],
    [3, 7, 8],
    [4, 5, 9],
    [4, 6, 8],
    [5, 6, 7],
];

/// The value that decides every move: the pip value, or `COURT` for a jack, queen or king.
fn value(card: Card) -> u8 {
    card.rank().min(COURT)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Wheel {
    /// The cards in dealing order, aces left out; `next` is the first one not yet dealt.
    order: [Card; CARDS_MAX],
    len: u8,
    next: u8,
    /// True until the first deal is complete: until then every vacated position is refilled
    /// from the stock at once.
    first_deal: bool,
    piles: [[Card; PILE_MAX]; CUSHION],
    heights: [u8; CUSHION],
    /// Each pile's values bottom up, four bits a card (`value`): the key's words, kept up to
    /// date as cards come and go, since building them afresh for every position cost a fifth
    /// of the search's time.
    values: [u32; CUSHION],
    /// Pip cards of each value (index = value) and court cards (index `COURT`) in the circle.
    /// It follows from the rest of the position (what was dealt and is no longer on the
    /// cushion), so it adds nothing to the key.
    circle: [u8; COURT as usize + 1],
    /// How many cards of each pip value the deal holds (8 for two whole packs).
    copies: u8,
    /// Variant: a deal may be made whenever the stock has cards, not only when no combination
    /// can be made.
    deal_any_time: bool,
    /// Bit `p` is set when the twelve cards `order[p..p + 12]`, dealt as a whole deal after
    /// the first, doom the game (see `doomed_deals`).
    doomed_deals: u128,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// Three pip cards from these positions (values ascending) crowned by the court card at
    /// `court`; all four go to the circle.
    Combine { pips: [u8; 3], court: u8 },
    /// The next twelve stock cards, one onto each position in order.
    Deal,
}

impl Wheel {
    fn top(&self, pile: usize) -> Option<Card> {
        let height = self.heights[pile] as usize;
        (height > 0).then(|| self.piles[pile][height - 1])
    }

    fn stock_len(&self) -> usize {
        (self.len - self.next) as usize
    }

    /// The cushion positions whose top card has each value: `positions[v][..count[v]]`.
    fn positions_by_value(&self) -> ByValue {
        by_value((0..CUSHION).filter_map(|pile| self.top(pile).map(|card| (pile, card))))
    }

    /// Once the stock is out, keeps of the top cards of each value only those that cover
    /// another card, or, if none does, one lone card: a lone card can stand in at any later
    /// time for a card of its value taken now, so taking the covering card instead loses no
    /// win, and lone cards of one value are alike (`docs/rules/wheel.md`, pruning rule 4).
    fn prefer_covering_cards(
        &self,
        positions: &mut [[u8; CUSHION]; COURT as usize + 1],
        count: &mut [usize; COURT as usize + 1],
    ) {
        for (list, count) in positions.iter_mut().zip(count.iter_mut()) {
            let list = &mut list[..*count];
            list.sort_by_key(|&pile| self.heights[pile as usize] == 1);
            let covering = list
                .iter()
                .filter(|&&pile| self.heights[pile as usize] > 1)
                .count();
            *count = if covering > 0 {
                covering
            } else {
                list.len().min(1)
            };
        }
    }

    /// Appends every combination the cushion's top cards allow, of the triples that `keep`
    /// accepts; with `prefer_covering`, once the stock is out, only those
    /// `prefer_covering_cards` keeps.
    fn combinations(
        &self,
        moves: &mut Vec<Move>,
        prefer_covering: bool,
        keep: impl Fn(&[u8; 3]) -> bool,
    ) {
        let mut by_value = self.positions_by_value();
        if prefer_covering && self.stock_len() == 0 {
            let (positions, count) = &mut by_value;
            self.prefer_covering_cards(positions, count);
        }
        for triple in TRIPLES.iter().filter(|t| allows(&by_value.1, t) && keep(t)) {
            each_combination(&by_value, triple, |pips, court| {
                moves.push(Move::Combine { pips, court })
            });
        }
    }

    /// Whether the rules allow any combination at all.
    fn combination_possible(&self) -> bool {
        let (_, count) = self.positions_by_value();
        TRIPLES.iter().any(|t| allows(&count, t))
    }

    /// Appends the legal moves, with the combinations limited as `combinations` says; whether
    /// a deal is legal always depends on every combination the rules allow.
    fn generate(
        &self,
        moves: &mut Vec<Move>,
        prefer_covering: bool,
        keep: impl Fn(&[u8; 3]) -> bool,
    ) {
        let start = moves.len();
        self.combinations(moves, prefer_covering, keep);
        if self.stock_len() == 0 {
            return;
        }
        if self.deal_any_time || (moves.len() == start && !self.combination_possible()) {
            moves.push(Move::Deal);
        }
    }

    /// Pip cards of each value not yet in the circle.
    fn remaining(&self) -> [u8; COURT as usize] {
        let mut left = [0; COURT as usize];
        for (v, left) in left.iter_mut().enumerate().skip(2) {
            *left = self.copies - self.circle[v];
        }
        left
    }

    fn push_card(&mut self, pile: usize, card: Card) {
        let height = self.heights[pile] as usize;
        self.piles[pile][height] = card;
        self.values[pile] |= u32::from(value(card)) << (4 * height);
        self.heights[pile] += 1;
    }

    fn deal_next(&mut self, pile: usize) {
        if self.next < self.len {
            self.push_card(pile, self.order[self.next as usize]);
            self.next += 1;
        }
    }

    /// Whether a whole deal still to come dooms the game (`doomed_deals`). Once the first deal
    /// is over, every later deal starts at `next`, `next + 12`, ..., whatever is played.
    fn doomed_ahead(&self) -> bool {
        !self.first_deal && self.doomed_from(self.next)
    }

    /// Whether one of the whole deals starting at `next`, `next + 12`, ... is doomed.
    fn doomed_from(&self, next: u8) -> bool {
        (next as usize..)
            .step_by(CUSHION)
            .take_while(|&p| p + CUSHION <= self.len as usize)
            .any(|p| self.doomed_deals >> p & 1 == 1)
    }

    /// The first position that no card will reach any more: every position from it on is
    /// settled, and settled positions are alike in every rule from now on. Once the first
    /// deal is over, the cards left go one to each position from 1 on, so with fewer than
    /// twelve left the positions beyond them get nothing; during the first deal any vacated
    /// position may be refilled, so none is settled while the stock has cards.
    fn first_settled(&self) -> usize {
        match self.stock_len() {
            0 => 0,
            _ if self.first_deal => CUSHION,
            left => left.min(CUSHION),
        }
    }

    fn first_deal_values(&self) -> FirstDealValues {
        let (_, count) = self.positions_by_value();
        FirstDealValues {
            next: self.next,
            counts: count.map(|n| n as u8),
        }
    }

    /// The value state after a combination of `triple` crowned by a court card, with its refill.
    fn first_deal_after(&self, state: FirstDealValues, triple: &[u8; 3]) -> FirstDealValues {
        let mut after = state;
        for &v in triple.iter().chain(std::iter::once(&COURT)) {
            after.counts[v as usize] -= 1;
        }
        let refill = (self.len - state.next).min(4);
        for &card in &self.order[state.next as usize..(state.next + refill) as usize] {
            after.counts[value(card) as usize] += 1;
        }
        after.next += refill;
        after
    }

    /// Whether the first deal, from a position with these values, can still end well: in a
    /// deal that no doomed deal follows (`doomed_deals`; the second deal itself included,
    /// since it too covers every position) and that does not run the stock out onto a
    /// cushion no placing of its cards can clear (`dealt_out_is_closed`), or in a won game.
    /// Every other way of playing it ends in a position with no move, or in a deal after
    /// which the game is lost, wherever the cards lie; so a first-deal position whose values
    /// fail this is lost (`docs/rules/wheel.md`, pruning rules 3 and 6).
    fn first_deal_can_end(&self, state: FirstDealValues) -> bool {
        self.with_memo(|memo| self.first_deal_live(state, &mut memo.live, &memo.closed_deals))
    }

    /// Runs `f` on this thread's first-deal memo, emptied first if it was another deal's.
    fn with_memo<R>(&self, f: impl FnOnce(&mut FirstDealMemo) -> R) -> R {
        FIRST_DEAL_MEMO.with_borrow_mut(|memo| {
            let deal = &self.order[..self.len as usize];
            if memo.deal != deal || memo.deal_any_time != self.deal_any_time {
                *memo = FirstDealMemo {
                    deal: deal.to_vec(),
                    deal_any_time: self.deal_any_time,
                    ..FirstDealMemo::default()
                };
            }
            f(memo)
        })
    }

    /// Counts a first-deal position from which the deal may be made, by its value state;
    /// where the search has asked for `STALL_POSITIONS` positions of this deal and met this
    /// end of the first deal in as many arrangements as the next of `STALL_LEVELS` says, asks
    /// whether the game after it is lost for every placing (`pooled_game_is_closed`, within
    /// that level's budgets), and if so remembers the deal from this state as closed. Most
    /// deals never get there; the hard ones spend their search on the many arrangements of a
    /// few such ends (`docs/rules/wheel.md`, rule 7).
    fn note_first_deal_end(&self, state: FirstDealValues) {
        self.with_memo(|memo| {
            let code = state.code();
            let (met, asked) = memo.arrangements.entry(code).or_insert((0, 0));
            *met += 1;
            let Some(&(_, floor, budget)) = STALL_LEVELS
                .get(*asked)
                .filter(|level| level.0 <= *met && memo.positions >= STALL_POSITIONS)
            else {
                return;
            };
            *asked += 1;
            if self.pooled_game_is_closed(state, floor, budget) {
                memo.closed_deals.insert(code);
                memo.live.clear();
            }
        });
    }

    fn first_deal_live(
        &self,
        state: FirstDealValues,
        memo: &mut AHashMap<u64, bool>,
        closed_deals: &AHashSet<u64>,
    ) -> bool {
        if let Some(&live) = memo.get(&state.code()) {
            return live;
        }
        let stock = self.len - state.next;
        let allowed = || {
            TRIPLES
                .iter()
                .filter(|t| state.present(COURT) && t.iter().all(|&v| state.present(v)))
        };
        let won = stock == 0 && state.counts.iter().all(|&n| n == 0);
        let deal_legal = stock > 0 && (self.deal_any_time || allowed().next().is_none());
        let deal_ends_well = deal_legal
            && !closed_deals.contains(&state.code())
            && !self.doomed_from(state.next)
            && !self.dealt_out_is_closed(state);
        // Pip cards not yet in the circle: all but those dealt and no longer on the cushion.
        let mut left = [self.copies; COURT as usize];
        for card in &self.order[..state.next as usize] {
            if let Some(left) = left.get_mut(value(*card) as usize) {
                *left -= 1;
            }
        }
        for (left, &on_cushion) in left.iter_mut().zip(&state.counts) {
            *left += on_cushion;
        }
        let live = won
            || deal_ends_well
            || allowed().any(|triple| {
                let mut after = left;
                for &v in triple {
                    after[v as usize] -= 1;
                }
                can_be_completed(&after)
                    && self.first_deal_live(
                        self.first_deal_after(state, triple),
                        memo,
                        closed_deals,
                    )
            });
        memo.insert(state.code(), live);
        live
    }

    /// Whether every game that ends the first deal with the deal in value state `state` is
    /// lost, wherever the first deal's cards lie, when the deals after it come one after
    /// another with nothing taken between them. A whole deal covers every position, so when
    /// its twelve cards allow no combination the next deal is the only move, whatever lies
    /// beneath; if such deals run the stock out, the cushion then is each position's card from
    /// the first deal with the cards dealt onto it above, and only where the first deal's
    /// cards lie is unknown. The backward game of pruning rule 5 is searched with those bottom
    /// cards left to be chosen from the first deal's values as it reaches them
    /// (`pooled_floor_is_closed`): if no placing of them can be cleared, no game through this
    /// state and its deal is won (`docs/rules/wheel.md`, pruning rule 6).
    fn dealt_out_is_closed(&self, state: FirstDealValues) -> bool {
        let len = self.len as usize;
        let first = state.next as usize;
        let mut next = first;
        // Whole deals whose cards allow no combination: each is followed at once by the next.
        let all_dealt = loop {
            if len - next <= CUSHION {
                next = len;
                break true;
            }
            let layer = &self.order[next..next + CUSHION];
            next += CUSHION;
            let (_, count) = by_value(layer.iter().copied().enumerate());
            if TRIPLES.iter().any(|t| allows(&count, t)) {
                break false;
            }
        };
        if !all_dealt && len - next > CUSHION {
            return false;
        }
        let mut columns = [[0u8; PILE_MAX]; CUSHION];
        let mut heights = [0u8; CUSHION];
        for (i, &card) in self.order[first..next].iter().enumerate() {
            let pile = i % CUSHION;
            columns[pile][heights[pile] as usize] = value(card);
            heights[pile] += 1;
        }
        let last_deal: Vec<u8> = self.order[next..len].iter().map(|&c| value(c)).collect();
        pooled_floor_is_closed(
            &columns,
            &heights,
            0,
            &state.counts,
            &last_deal,
            POOLED_FLOOR_POSITIONS,
            &mut AHashSet::new(),
        )
    }

    /// Whether every game that ends the first deal with the deal in value state `state` is
    /// lost, wherever the first deal's cards lie (pruning rule 7). After the first deal every
    /// later card's position is fixed (the `k`-th deal after it puts `order[next + 12(k - 1) +
    /// p]` on position `p`); only where the first deal's cards lie is unknown. So the game
    /// after the deal is played here for every placing at once: each position's first-deal
    /// card is a *pooled* card, and when it is taken in a combination it takes a value the
    /// first deal's values still have (`state.counts`, less those taken so). A real game is a
    /// line of this one (each pooled card taken as the value it has), and a deal the real
    /// cushion allows is allowed here whenever some values of the pool on the uncovered
    /// pooled cards allow no combination. Rule 1 prunes as in the real game, and rule 5's
    /// backward game, for every placing of the pooled cards left (`pooled_floor_is_closed`),
    /// closes a line with the last deal to come or the stock out. If no line takes every
    /// card, nor does any real game through this state. A search that would hold more than
    /// `budget` positions, or spend more than `POOLED_WORK_PER_POSITION` times as many with
    /// its backward games (each within `floor` positions), counts as open. Proof in
    /// `docs/rules/wheel.md`, pruning rule 7.
    fn pooled_game_is_closed(&self, state: FirstDealValues, floor: usize, budget: usize) -> bool {
        let len = self.len as usize;
        let first = state.next as usize;
        if first >= len {
            return false;
        }
        let pool = state.counts;
        // The card the `layer`-th deal after the first puts on position `pile`, if any.
        let values: Vec<u8> = self.order[..len].iter().map(|&c| value(c)).collect();
        let dealt = |pile: usize, layer: usize| {
            let index = first + CUSHION * (layer - 1) + pile;
            values.get(index).copied()
        };
        let mut circle_at_start = [0u8; COURT as usize + 1];
        for card in &self.order[..first] {
            circle_at_start[value(*card) as usize] += 1;
        }
        for (circle, &on_cushion) in circle_at_start.iter_mut().zip(&pool) {
            *circle -= on_cushion;
        }
        #[derive(Clone, Copy)]
        struct Pooled {
            /// Bit `k` for each position: the card of layer `k` (0 the pooled card) is taken.
            taken: [u8; CUSHION],
            /// Deals made since the first deal ended.
            deals: u8,
            /// Pooled cards taken, by the value they took.
            used: [u8; COURT as usize + 1],
        }
        let code = |p: &Pooled| {
            let mut words = [0u64; 3];
            for (pile, &t) in p.taken.iter().enumerate() {
                words[pile / 8] |= u64::from(t) << (8 * (pile % 8));
            }
            words[1] |= u64::from(p.deals) << 32;
            words[2] = p.used[2..]
                .iter()
                .fold(0, |code, &n| code << 4 | u64::from(n));
            words
        };
        let mut seen: ahash::AHashSet<[u64; 3]> = ahash::AHashSet::new();
        let mut stack = vec![Pooled {
            taken: [0; CUSHION],
            deals: 1,
            used: [0; COURT as usize + 1],
        }];
        let mut floor_seen = AHashSet::new();
        let mut work = 0;
        while let Some(position) = stack.pop() {
            if !seen.insert(code(&position)) {
                continue;
            }
            work += 1;
            if seen.len() + stack.len() > budget || work > POOLED_WORK_PER_POSITION * budget {
                return false;
            }
            let next = first + CUSHION * position.deals as usize;
            let stock = len.saturating_sub(next);
            let layers = |pile: usize| {
                1 + (1..=position.deals as usize)
                    .filter(|&k| dealt(pile, k).is_some())
                    .count()
            };
            let pool_left: [u8; COURT as usize + 1] =
                std::array::from_fn(|v| pool[v] - position.used[v]);
            let mut circle = circle_at_start;
            for (circle, &used) in circle.iter_mut().zip(&position.used) {
                *circle += used;
            }
            // Each position's top: the layer it comes from, with its value (`None` for a
            // pooled card), or nothing once the position is empty.
            let mut tops: [Option<(u8, Option<u8>)>; CUSHION] = [None; CUSHION];
            let mut empty = true;
            for (pile, top) in tops.iter_mut().enumerate() {
                let taken = position.taken[pile];
                for layer in 1..layers(pile) {
                    if taken >> layer & 1 == 1 {
                        circle[dealt(pile, layer).unwrap() as usize] += 1;
                    }
                }
                *top = (0..layers(pile))
                    .rev()
                    .find(|&layer| taken >> layer & 1 == 0)
                    .map(|layer| {
                        (
                            layer as u8,
                            (layer > 0).then(|| dealt(pile, layer).unwrap()),
                        )
                    });
                empty &= top.is_none();
            }
            if empty && stock == 0 {
                return false;
            }
            if stock <= CUSHION {
                // Rule 5's backward game, for every placing of the pooled cards left.
                let mut columns = [[0u8; PILE_MAX]; CUSHION];
                let mut heights = [0u8; CUSHION];
                let mut bottomless = 0u16;
                for pile in 0..CUSHION {
                    let taken = position.taken[pile];
                    bottomless |= u16::from(taken & 1) << pile;
                    for layer in (1..layers(pile)).filter(|&k| taken >> k & 1 == 0) {
                        columns[pile][heights[pile] as usize] = dealt(pile, layer).unwrap();
                        heights[pile] += 1;
                    }
                }
                let last_deal = &values[next.min(len)..];
                let closed = pooled_floor_is_closed(
                    &columns,
                    &heights,
                    bottomless,
                    &pool_left,
                    last_deal,
                    floor,
                    &mut floor_seen,
                );
                work += floor_seen.len();
                if closed {
                    continue;
                }
            }
            let mut left = [0u8; COURT as usize];
            for (v, left) in left.iter_mut().enumerate().skip(2) {
                *left = self.copies - circle[v];
            }
            // Where each value can come from: positions whose top has it, and uncovered pooled
            // cards while the pool has it.
            let sources = |v: u8| {
                (0..CUSHION).filter(move |&pile| match tops[pile] {
                    Some((_, Some(top))) => top == v,
                    Some((_, None)) => pool_left[v as usize] > 0,
                    None => false,
                })
            };
            for triple in TRIPLES.iter().filter(|t| !never_in_a_win(t)) {
                let mut after = left;
                for &v in triple {
                    after[v as usize] -= 1;
                }
                if !can_be_completed(&after) {
                    continue;
                }
                for a in sources(triple[0]) {
                    for b in sources(triple[1]).filter(|&b| b != a) {
                        for c in sources(triple[2]).filter(|&c| c != a && c != b) {
                            for k in sources(COURT).filter(|k| ![a, b, c].contains(k)) {
                                let mut next = position;
                                for (pile, &v) in
                                    [a, b, c, k].iter().zip(triple.iter().chain([&COURT]))
                                {
                                    let (layer, top) = tops[*pile].unwrap();
                                    next.taken[*pile] |= 1 << layer;
                                    if top.is_none() {
                                        next.used[v as usize] += 1;
                                    }
                                }
                                stack.push(next);
                            }
                        }
                    }
                }
            }
            if stock > 0 {
                // The deal, where some values of the pool on the uncovered pooled cards leave
                // the top cards no combination (under the default rules).
                let mut known = 0u16;
                let mut uncovered = 0;
                for top in tops.iter().flatten() {
                    match top.1 {
                        Some(v) => known |= 1 << v,
                        None => uncovered += 1,
                    }
                }
                if self.deal_any_time || can_deal_with_pooled_tops(known, uncovered, &pool_left) {
                    let mut next = position;
                    next.deals += 1;
                    stack.push(next);
                }
            }
        }
        true
    }

    /// During the first deal, whether ending it now with the deal leads only to games lost by
    /// pruning rule 6 (`dealt_out_is_closed`); false after the first deal or with the stock
    /// out. It does not ask whether the deal is legal now.
    pub fn deal_now_runs_out_closed(&self) -> bool {
        self.first_deal
            && self.stock_len() > 0
            && self.dealt_out_is_closed(self.first_deal_values())
    }

    /// During the first deal, whether ending it now with the deal leads only to games lost by
    /// pruning rule 7 (`pooled_game_is_closed`, searched within `budget` positions); false
    /// after the first deal or with the stock out. It does not ask whether the deal is legal.
    pub fn deal_now_closed_for_every_placing(&self, budget: usize) -> bool {
        self.first_deal
            && self.stock_len() > 0
            && self.pooled_game_is_closed(self.first_deal_values(), POOLED_FLOOR_POSITIONS, budget)
    }

    /// Whether the cushion can never be cleared, judged from the bottom, once no more than the
    /// last deal is to come. With the stock out, cards only leave, so a won game's last
    /// combination takes four cards each alone on its position, bottom cards; the one before
    /// it four cards each a bottom card or just above one the last takes; and so on: run
    /// backwards, a won game takes combinations from the bottoms up by the same rules, each
    /// card once the cards beneath it are taken. With one deal to come, the cushion after it
    /// is what is left of each position now (some of its top cards may go before the deal)
    /// with the deal's card on top, so the backward game may take the deal's card of a
    /// position once any number of its cards now are taken, and leave the rest: those went
    /// before the deal, whose cushion (the default rules) allows no combination. That
    /// backward game is searched here, from the bottoms, taking no triple a won game never
    /// takes (`never_in_a_win`); what it has taken is then always a sum of a won game's
    /// triples, so rule 1's split holds of it without a check. If it cannot take every card
    /// after the last deal, nor can the game. A search that would hold more than
    /// `FLOOR_POSITIONS` positions (with the last deal to come, `last_deal_floor_budget`)
    /// counts as open. Proof and figures in `docs/rules/wheel.md`, pruning rule 5.
    pub fn floor_is_closed(&self) -> bool {
        let to_deal = self.stock_len();
        if to_deal > CUSHION || (to_deal > 0 && self.first_deal) {
            return false;
        }
        let dealt = &self.order[self.next as usize..self.len as usize];
        let budget = if to_deal > 0 {
            last_deal_floor_budget()
        } else {
            FLOOR_POSITIONS
        };
        let closed = FLOOR_SEARCH.with_borrow_mut(|(seen, stack)| {
            seen.clear();
            stack.clear();
            stack.push(([0u8; CUSHION], 0u16));
            self.floor_search(dealt, budget, seen, stack)
        });
        if budget == STALLED_LAST_DEAL_FLOOR_POSITIONS {
            FIRST_DEAL_MEMO.with_borrow_mut(|memo| {
                let (searched, closed_ones) = &mut memo.wide_last_deal_floors;
                *searched += 1;
                *closed_ones += u64::from(closed);
            });
        }
        closed
    }

    /// `floor_is_closed`'s search within `budget` positions, with its room (`FLOOR_SEARCH`)
    /// made ready: `dealt` is the last deal's cards, and the stack holds the starting position.
    fn floor_search(
        &self,
        dealt: &[Card],
        budget: usize,
        seen: &mut ahash::AHashSet<u64>,
        stack: &mut Vec<FloorPosition>,
    ) -> bool {
        let to_deal = dealt.len();
        let all_dealt = (1u16 << to_deal) - 1;
        while let Some((taken, taken_dealt)) = stack.pop() {
            let code = taken
                .iter()
                .fold(u64::from(taken_dealt), |code, &t| code << 4 | u64::from(t));
            if !seen.insert(code) {
                continue;
            }
            if taken_dealt == all_dealt && (to_deal > 0 || taken == self.heights) {
                // Before the deal each position held the cards taken here, and (the default
                // rules) its top cards allowed no combination.
                let before = (0..CUSHION)
                    .filter(|&pile| taken[pile] > 0)
                    .map(|pile| (pile, self.piles[pile][taken[pile] as usize - 1]));
                let (_, count) = by_value(before);
                if to_deal == 0 || self.deal_any_time || !TRIPLES.iter().any(|t| allows(&count, t))
                {
                    return false;
                }
            }
            // What each position offers from below, grouped by value: its next card now, and
            // the deal's card for it (after which the position is done). An offer is the
            // position, plus `FROM_DEAL` for the deal's card.
            const FROM_DEAL: u8 = 0x10;
            let mut offered = [[0u8; 2 * CUSHION]; COURT as usize + 1];
            let mut offers = [0usize; COURT as usize + 1];
            let mut offer = |v: u8, o: u8| {
                offered[v as usize][offers[v as usize]] = o;
                offers[v as usize] += 1;
            };
            for pile in 0..CUSHION {
                let done = pile < to_deal && taken_dealt >> pile & 1 == 1;
                if !done && taken[pile] < self.heights[pile] {
                    offer(value(self.piles[pile][taken[pile] as usize]), pile as u8);
                }
                if pile < to_deal && !done {
                    offer(value(dealt[pile]), pile as u8 | FROM_DEAL);
                }
            }
            let of = |v: u8| &offered[v as usize][..offers[v as usize]];
            let pile_of = |o: u8| o & !FROM_DEAL;
            if of(COURT).is_empty() {
                continue;
            }
            for triple in TRIPLES.iter().filter(|t| !never_in_a_win(t)) {
                for &a in of(triple[0]) {
                    for &b in of(triple[1]).iter().filter(|&&b| pile_of(b) != pile_of(a)) {
                        for &c in of(triple[2])
                            .iter()
                            .filter(|&&c| pile_of(c) != pile_of(a) && pile_of(c) != pile_of(b))
                        {
                            for &k in of(COURT)
                                .iter()
                                .filter(|&&k| ![a, b, c].map(pile_of).contains(&pile_of(k)))
                            {
                                let mut next = (taken, taken_dealt);
                                for o in [a, b, c, k] {
                                    if o & FROM_DEAL != 0 {
                                        next.1 |= 1 << pile_of(o);
                                    } else {
                                        next.0[o as usize] += 1;
                                    }
                                }
                                stack.push(next);
                                if seen.len() + stack.len() > budget {
                                    return false;
                                }
                            }
                        }
                    }
                }
            }
        }
        true
    }

    fn pile_text(&self, pile: usize) -> String {
        format_stack(&self.piles[pile][..self.heights[pile] as usize])
    }
}

/// A first-deal position seen by its values only: the next stock card and how many cards of
/// each value lie on the cushion (index = value, `COURT` for court cards). While the first
/// deal is open every pile holds at most one card, and a combination's effect on these counts
/// (four values off, the next stock cards' values on) is the same wherever the cards lie; so
/// is which moves the rules allow.
#[derive(Clone, Copy)]
struct FirstDealValues {
    next: u8,
    counts: [u8; COURT as usize + 1],
}

impl FirstDealValues {
    fn code(&self) -> u64 {
        self.counts[2..]
            .iter()
            .fold(u64::from(self.next), |code, &n| code << 4 | u64::from(n))
    }

    fn present(&self, v: u8) -> bool {
        self.counts[v as usize] > 0
    }
}

/// Per thread, for the deal being searched: whether each first-deal value state seen can end
/// the first deal well (`Wheel::first_deal_live`). Many thousands of first-deal positions share
/// a few dozen value states, so each is judged once; the memo is emptied when the deal changes.
#[derive(Default)]
struct FirstDealMemo {
    deal: Vec<Card>,
    deal_any_time: bool,
    live: AHashMap<u64, bool>,
    /// Positions the search has asked moves for in this deal.
    positions: u64,
    /// Backward games searched with the last deal to come within
    /// `STALLED_LAST_DEAL_FLOOR_POSITIONS`, and how many of them closed.
    wide_last_deal_floors: (u64, u64),
    /// First-deal ends (value states from which the deal may be made): in how many
    /// arrangements each was met, and how many times pruning rule 7 has been asked about it
    /// (`STALL_LEVELS`).
    arrangements: AHashMap<u64, (u32, usize)>,
    /// The value states from which pruning rule 7 found the deal closed.
    closed_deals: AHashSet<u64>,
}

/// A position of `Wheel::floor_is_closed`'s backward game: how many cards each position has
/// given up from below, and which of the last deal's cards are taken (bit `p`: position `p`'s).
type FloorPosition = ([u8; CUSHION], u16);

thread_local! {
    /// `Wheel::floor_is_closed`'s room, reused: it runs at every position near the end, and
    /// making its table and stack afresh each time cost about an eighth of the search's time.
    static FLOOR_SEARCH: RefCell<(ahash::AHashSet<u64>, Vec<FloorPosition>)> =
        RefCell::new(Default::default());
    static FIRST_DEAL_MEMO: RefCell<FirstDealMemo> = RefCell::new(FirstDealMemo::default());
}

/// Cushion positions grouped by the value of their top card: `positions[v][..count[v]]`.
type ByValue = (
    [[u8; CUSHION]; COURT as usize + 1],
    [usize; COURT as usize + 1],
);

/// Groups `(position, top card)` pairs by the card's value (`ByValue`).
fn by_value(tops: impl Iterator<Item = (usize, Card)>) -> ByValue {
    let mut positions = [[0; CUSHION]; COURT as usize + 1];
    let mut count = [0; COURT as usize + 1];
    for (pile, card) in tops {
        let v = value(card) as usize;
        positions[v][count[v]] = pile as u8;
        count[v] += 1;
    }
    (positions, count)
}

/// Whether the top cards grouped in `count` (`ByValue`) make `triple`, crowned by a court card.
fn allows(count: &[usize; COURT as usize + 1], triple: &[u8; 3]) -> bool {
    count[COURT as usize] > 0 && triple.iter().all(|&v| count[v as usize] > 0)
}

/// Calls `f` with the positions of each combination of `triple` that the top cards grouped in
/// `by_value` make: a position for each pip value, and the court card's.
fn each_combination(by_value: &ByValue, triple: &[u8; 3], mut f: impl FnMut([u8; 3], u8)) {
    let (positions, count) = by_value;
    let of = |v: u8| &positions[v as usize][..count[v as usize]];
    let [a, b, c] = triple.map(of);
    for &pa in a {
        for &pb in b {
            for &pc in c {
                for &court in of(COURT) {
                    f([pa, pb, pc], court);
                }
            }
        }
    }
}

/// Whether no won game takes this triple (see `can_be_completed`).
fn never_in_a_win(triple: &[u8; 3]) -> bool {
    *triple == [3, 6, 9] || *triple == [5, 6, 7]
}

/// Bit `p` set for each whole deal `cards[p..p + 12]` that, made after the first deal, leaves
/// a position from which no won game goes on (`cap_is_closed`). Proofs and figures in
/// `docs/rules/wheel.md`, pruning rule 2.
fn doomed_deals(cards: &[Card], deal_any_time: bool) -> u128 {
    (0..(cards.len() + 1).saturating_sub(CUSHION))
        .filter(|&p| cap_is_closed(&cards[p..], deal_any_time))
        .fold(0, |doomed, p| doomed | 1 << p)
}

/// Whether `uncovered` pooled cards can take values of `pool` (`pool[v]` cards of value `v`
/// left) so that, with the top cards of values `known` (bit `v`), no combination can be made:
/// then a real cushion with these tops may allow the deal. Only which values are present
/// matters, so each set of values the pooled cards could show is tried: it must have room
/// for them all and no more values than there are cards.
fn can_deal_with_pooled_tops(
    known: u16,
    uncovered: usize,
    pool: &[u8; COURT as usize + 1],
) -> bool {
    let combination = |present: u16| {
        present >> COURT & 1 == 1
            && TRIPLES
                .iter()
                .any(|t| t.iter().all(|&v| present >> v & 1 == 1))
    };
    if uncovered == 0 {
        return !combination(known);
    }
    let values: Vec<u8> = (2..=COURT).filter(|&v| pool[v as usize] > 0).collect();
    (1u32..1 << values.len()).any(|subset| {
        let chosen = values
            .iter()
            .enumerate()
            .filter(|(i, _)| subset >> i & 1 == 1)
            .map(|(_, &v)| v);
        let room: usize = chosen.clone().map(|v| usize::from(pool[v as usize])).sum();
        let shown = chosen.clone().fold(0u16, |present, v| present | 1 << v);
        (subset.count_ones() as usize) <= uncovered
            && room >= uncovered
            && !combination(known | shown)
    })
}

/// What pruning rule 7's game may spend, positions of its own and of the backward games it
/// asks (`pooled_floor_is_closed`), for each position of its budget: its lines' ends can
/// each cost a backward game of thousands of positions, which on a few deals took minutes.
const POOLED_WORK_PER_POSITION: usize = 16;

/// Positions a deal's search must have asked moves for before pruning rule 7 is asked about
/// an end of the first deal (`Wheel::note_first_deal_end`): a deal decided within them never
/// pays for it.
const STALL_POSITIONS: u64 = 100_000;

/// When pruning rule 7 is asked about an end of the first deal, and how hard it searches: once
/// the search has met that end in this many arrangements, the backward game at the bottom
/// within this many positions, the game after the deal within this many. Most ends close (or
/// never will) at the first; the few that close only in a deeper search are asked again as
/// the search keeps meeting them.
const STALL_LEVELS: [(u32, usize, usize); 3] =
    [(16, 4096, 1_000), (64, 4096, 20_000), (256, 4096, 200_000)];

/// The most positions of a pooled floor (`pooled_floor_is_closed`) searched before it is
/// taken as open. It is searched once per first-deal value state, not per position.
const POOLED_FLOOR_POSITIONS: usize = 4096;

/// Whether no cushion of this shape can be cleared with the stock out: on each position a
/// bottom card whose place is unknown, of the values in `pool` (one card each, `pool[v]` of
/// value `v`), and above it `columns[p][..heights[p]]` (values, bottom up). It searches the
/// backward game of `Wheel::floor_is_closed` for every placing of the pool's cards at once:
/// a bottom card may be taken whenever the pool has its value left, and its position is
/// chosen later, as the first of its column's cards is taken (the bottom must go before it,
/// so in an earlier combination). So a position's column opens only for a bottom card taken
/// in an earlier combination and not yet given a position; at the end the bottoms left over
/// go to the positions with no column. If the search ends without taking every card, no
/// placing of the pool can be cleared. A search that would hold more than
/// `POOLED_FLOOR_POSITIONS` positions counts as open. With a last deal still to come
/// (`last_deal`, its values, one onto each of the first positions), a position's card from
/// it may be taken at any point, as in the last-deal form of `Wheel::floor_is_closed`, and
/// the search stops at its second position (`LAST_DEAL_FLOOR_POSITIONS`): it only asks
/// whether the cushion after that deal can end at all. The positions of `bottomless` (bit `p`
/// for position `p`) have no bottom card from the pool: their column is all there is, open
/// from the start (`pool` then holds one card for each of the other positions).
fn pooled_floor_is_closed(
    columns: &[[u8; PILE_MAX]; CUSHION],
    heights: &[u8; CUSHION],
    bottomless: u16,
    pool: &[u8; COURT as usize + 1],
    last_deal: &[u8],
    budget: usize,
    seen: &mut AHashSet<u128>,
) -> bool {
    seen.clear();
    let budget = if last_deal.is_empty() {
        budget
    } else {
        LAST_DEAL_FLOOR_POSITIONS
    };
    // A position of the search: for each position how many of its column's cards are taken,
    // plus one once its column is open (0: still closed); how many bottoms of each value the
    // pool has given; which of the last deal's cards are taken (bit `p`: position `p`'s).
    type Pooled = ([u8; CUSHION], [u8; COURT as usize + 1], u16);
    let code = |(taken, used, dealt): &Pooled| {
        let code = taken
            .iter()
            .fold(u128::from(*dealt), |code, &t| code << 4 | u128::from(t));
        used[2..]
            .iter()
            .fold(code, |code, &n| code << 4 | u128::from(n))
    };
    let cards: usize = pool.iter().map(|&n| usize::from(n)).sum();
    let start = std::array::from_fn(|p| u8::from(bottomless >> p & 1 == 1));
    let mut stack: Vec<Pooled> = vec![(start, [0; COURT as usize + 1], 0)];
    let open_from_the_start = bottomless.count_ones() as usize;
    while let Some(position) = stack.pop() {
        if !seen.insert(code(&position)) {
            continue;
        }
        let (taken, used, dealt) = position;
        let given: usize = used.iter().map(|&n| usize::from(n)).sum();
        let open = taken.iter().filter(|&&t| t > 0).count() - open_from_the_start;
        if last_deal.is_empty()
            && given == cards
            && (0..CUSHION).all(|p| heights[p] == 0 || taken[p] == heights[p] + 1)
        {
            return false;
        }
        // Bottoms taken in earlier combinations and not yet placed: each may open a column.
        let unplaced = given - open;
        // What the columns offer: an open column's next card, or a closed one's first card.
        let mut offered = [(0u8, 0u8, false); 2 * CUSHION];
        let mut offers = 0;
        for pile in 0..CUSHION {
            let t = taken[pile].max(1);
            let done = pile < last_deal.len() && dealt >> pile & 1 == 1;
            if t <= heights[pile] && !done {
                offered[offers] = (pile as u8, columns[pile][t as usize - 1], false);
                offers += 1;
            }
            if pile < last_deal.len() && !done {
                offered[offers] = (pile as u8, last_deal[pile], true);
                offers += 1;
            }
        }
        let offered = &offered[..offers];
        for triple in TRIPLES.iter().filter(|t| !never_in_a_win(t)) {
            // Each of the four values from the pool (`None`) or from a column.
            let choices = |v: u8| {
                let from_pool = (used[v as usize] < pool[v as usize]).then_some(None);
                from_pool.into_iter().chain(
                    offered
                        .iter()
                        .filter(move |o| o.1 == v)
                        .map(|&(p, _, d)| Some((p, d))),
                )
            };
            for a in choices(triple[0]) {
                for b in choices(triple[1]) {
                    for c in choices(triple[2]) {
                        for k in choices(COURT) {
                            let picks = [a, b, c, k];
                            let piles = picks.iter().flatten().map(|&(p, _)| p);
                            if piles
                                .clone()
                                .enumerate()
                                .any(|(i, p)| piles.clone().skip(i + 1).any(|q| q == p))
                            {
                                continue;
                            }
                            let opened = picks
                                .iter()
                                .flatten()
                                .filter(|&&(p, from_deal)| !from_deal && taken[p as usize] == 0)
                                .count();
                            if opened > unplaced {
                                continue;
                            }
                            let mut next = position;
                            for (pick, v) in picks.into_iter().zip(triple.iter().chain([&COURT])) {
                                match pick {
                                    None => next.1[*v as usize] += 1,
                                    Some((p, true)) => next.2 |= 1 << p,
                                    Some((p, false)) => {
                                        next.0[p as usize] = taken[p as usize].max(1) + 1
                                    }
                                }
                            }
                            stack.push(next);
                            if seen.len() + stack.len() > budget {
                                return false;
                            }
                        }
                    }
                }
            }
        }
    }
    true
}

/// The most positions of a cap (`cap_is_closed`) searched before it is taken as open.
const CAP_POSITIONS: usize = 4096;

/// The most positions of a floor (`Wheel::floor_is_closed`) searched before it is taken as
/// open. Most closed floors close at once; a floor that stays open costs this much at every
/// position once the stock is out, so it is kept small (`docs/rules/wheel.md`, rule 5).
const FLOOR_POSITIONS: usize = 16;

/// The same with the last deal still to come: the backward game then has far more ways to go
/// (any number of a position's cards may have gone before the deal), and is cut off where it
/// has a second position, so it only asks whether the cushion can end at all.
const LAST_DEAL_FLOOR_POSITIONS: usize = 1;

/// The same once the deal's search has asked for `STALL_POSITIONS` positions: on some hard
/// deals the backward game with the last deal to come is small and has no end at all, and
/// searched this far it closes nearly every such position (seed 224911: lost in 2.2M
/// positions, unknown after 60M with the cut at the second), while on deals decided sooner
/// the wider search would only cost time (`docs/rules/wheel.md`, rule 5).
const STALLED_LAST_DEAL_FLOOR_POSITIONS: usize = 64;

/// Wide backward games (`STALLED_LAST_DEAL_FLOOR_POSITIONS`) a deal's search makes before it
/// judges whether they pay.
const WIDE_LAST_DEAL_TRIAL: u64 = 20_000;

/// The share of a deal's wide backward games, at least, that must close for them to go on
/// (one in this many).
const WIDE_LAST_DEAL_YIELD: u64 = 100;

/// The backward game's budget with the last deal to come, by how far the deal's search has
/// gone (`LAST_DEAL_FLOOR_POSITIONS`, `STALLED_LAST_DEAL_FLOOR_POSITIONS`): wide once the
/// deal is hard, and narrow again if after `WIDE_LAST_DEAL_TRIAL` wide games fewer than one
/// in `WIDE_LAST_DEAL_YIELD` has closed, since on such deals the wide games only cost time.
fn last_deal_floor_budget() -> usize {
    let (positions, (searched, closed)) =
        FIRST_DEAL_MEMO.with_borrow(|memo| (memo.positions, memo.wide_last_deal_floors));
    let paying = searched < WIDE_LAST_DEAL_TRIAL || closed * WIDE_LAST_DEAL_YIELD >= searched;
    if positions >= STALL_POSITIONS && paying {
        STALLED_LAST_DEAL_FLOOR_POSITIONS
    } else {
        LAST_DEAL_FLOOR_POSITIONS
    }
}

/// Whether the game from a whole deal of `cards[..12]` on, with `cards[12..]` the rest of the
/// stock, can never reach below that deal. The deal covers every position, so until some
/// position's cards dealt from it on (its *cap*) are all taken, the top cards, and so every
/// legal move, depend on these cards alone, not on what lay beneath. The search plays that
/// game from the deal, taking no triple a won game never takes (`never_in_a_win`) but letting
/// the standard deal wait for every combination the rules allow; a position whose cap is
/// gone ends it as open. A won game empties every position, so it passes such a position:
/// if none is reachable, no game that makes this deal is won. A search that would hold more
/// than `CAP_POSITIONS` positions also counts as open.
fn cap_is_closed(cards: &[Card], deal_any_time: bool) -> bool {
    let mut seen = ahash::AHashSet::new();
    let mut stack = vec![Cap {
        dealt: CUSHION as u8,
        taken: [0; CUSHION],
    }];
    while let Some(cap) = stack.pop() {
        if !seen.insert(cap.code()) {
            continue;
        }
        if seen.len() > CAP_POSITIONS {
            return false;
        }
        let Some(tops) = cap.tops() else {
            return false;
        };
        let grouped =
            by_value((0..CUSHION).map(|pile| (pile, cards[tops[pile] as usize * CUSHION + pile])));
        let mut combination_possible = false;
        for triple in TRIPLES.iter().filter(|t| allows(&grouped.1, t)) {
            combination_possible = true;
            if never_in_a_win(triple) {
                continue;
            }
            each_combination(&grouped, triple, |pips, court| {
                let mut next = cap;
                for pile in pips.into_iter().chain([court]) {
                    next.taken[pile as usize] |= 1 << tops[pile as usize];
                }
                stack.push(next);
            });
        }
        let stock = cards.len() - cap.dealt as usize;
        if stock > 0 && (deal_any_time || !combination_possible) {
            let mut next = cap;
            next.dealt += stock.min(CUSHION) as u8;
            stack.push(next);
        }
    }
    true
}

/// A position of the game from a whole deal on (`cap_is_closed`): how many cards have been
/// dealt since, and for each position which of them (bit `k`: the `k`-th deal's) are taken.
#[derive(Clone, Copy)]
struct Cap {
    dealt: u8,
    taken: [u8; CUSHION],
}

impl Cap {
    fn code(&self) -> u128 {
        self.taken
            .iter()
            .fold(u128::from(self.dealt), |code, &t| code << 8 | u128::from(t))
    }

    /// For each position the deal its top card came from, or `None` once some position's
    /// cards from these deals are all taken.
    fn tops(&self) -> Option<[u8; CUSHION]> {
        let mut tops = [0; CUSHION];
        for (pile, top) in tops.iter_mut().enumerate() {
            let deals = (self.dealt as usize + CUSHION - 1 - pile) / CUSHION;
            *top = (0..deals as u8)
                .rev()
                .find(|&k| self.taken[pile] >> k & 1 == 0)?;
        }
        Some(tops)
    }
}

/// Whether the pip cards left (`left[v]` of each value `v`) can still be split into triples
/// that a won game may take. In a won game every pip card is used, so each value is used as
/// often as it is dealt; the only ways to do that never take 3-6-9 or 5-6-7, and take 2-6-10,
/// 3-7-8 and 4-5-9 some number s of times each and 2-7-9, 3-5-10 and 4-6-8 the rest
/// (proof in `docs/rules/wheel.md`). So the pip cards left must be exactly what such a
/// split leaves: four balance equations, and room for a whole number s.
pub fn can_be_completed(left: &[u8; COURT as usize]) -> bool {
    !two_six_tens(left).is_empty()
}

/// The numbers of 2-6-10s still to take for which the pip cards left split into a won game's
/// triples (`can_be_completed`); empty when none does. The other five counts follow from it.
fn two_six_tens(left: &[u8; COURT as usize]) -> std::ops::RangeInclusive<i32> {
    let m = |v: usize| i32::from(left[v]);
    let balanced = m(5) == m(10) + m(4) - m(6)
        && m(7) == m(2) + m(3) - m(10)
        && m(8) == m(3) - m(10) + m(6)
        && m(9) == m(2) + m(4) - m(6);
    // Every count left non-negative.
    let lowest = 0.max(m(10) - m(3)).max(m(6) - m(4));
    let highest = m(2).min(m(10)).min(m(6));
    if balanced {
        lowest..=highest
    } else {
        lowest..=lowest - 1
    }
}

/// The heuristic's weight for each way, beyond the first, that the pip cards left can still
/// be split into a won game's triples (`two_six_tens`).
const SPLIT_WEIGHT: i32 = 6;

impl Game for Wheel {
    type Move = Move;
    /// Each pile's values bottom up (4 bits a card, 8 cards a pile), then the stock's
    /// position and whether the first deal is still open.
    type Key = [u64; 7];

    const NAME: &'static str = "wheel";
    const SUMMARY: &'static str =
        "The Wheel (Cadogan): three pip cards summing to 18, crowned by a court card, from a cushion of twelve";
    const PACKS: usize = 2;
    const FORMULAS: bool = true;
    const OPTIONS: &'static [VariantOption] = &[VariantOption {
        name: "deal-any-time",
        help: "a deal may be made at any time, not only when no combination can be made",
        kind: OptionKind::Flag,
    }];

    /// Dealing at any time only adds moves: the standard rules are narrower.
    fn narrower(options: &OptionValues) -> Vec<OptionValues> {
        options.with_fewer_moves(Self::OPTIONS, &["deal-any-time"], &[])
    }

    /// So `--deal-any-time` is wider than the standard rules.
    fn wider(options: &OptionValues) -> Vec<OptionValues> {
        options.with_more_moves(Self::OPTIONS, &["deal-any-time"], &[])
    }

    /// Sets the aces aside, then deals twelve cards to the cushion; the rest is the stock.
    /// Tests may deal a reduced pack: any deal with as many cards of each pip value as of every
    /// other, and three court cards to every three pip cards.
    fn deal(options: &OptionValues, order: &[Card]) -> Result<Self, String> {
        let cards: Vec<Card> = order.iter().copied().filter(|c| c.rank() != ACE).collect();
        let mut counts = [0usize; COURT as usize + 1];
        for &card in &cards {
            counts[value(card) as usize] += 1;
        }
        let copies = counts[2];
        if copies == 0
            || cards.len() > CARDS_MAX
            || (2..=10).any(|v| counts[v] != copies)
            || counts[COURT as usize] != 3 * copies
        {
            return Err(format!(
                "the Wheel needs as many cards of each value 2-10 as of every other, and three \
                 court cards to every three pip cards (two packs: 8 of each value, 24 court \
                 cards); this deal has {} without its aces",
                cards.len()
            ));
        }
        let mut game = Wheel {
            order: [Card::new(Suit::CLUBS, 2); CARDS_MAX],
            len: cards.len() as u8,
            next: 0,
            first_deal: true,
            piles: [[Card::new(Suit::CLUBS, 2); PILE_MAX]; CUSHION],
            heights: [0; CUSHION],
            values: [0; CUSHION],
            circle: [0; COURT as usize + 1],
            copies: copies as u8,
            deal_any_time: options.flag("deal-any-time"),
            doomed_deals: doomed_deals(&cards, options.flag("deal-any-time")),
        };
        game.order[..cards.len()].copy_from_slice(&cards);
        for pile in 0..CUSHION {
            game.deal_next(pile);
        }
        Ok(game)
    }

    fn legal_moves(&self, moves: &mut Vec<Move>) {
        self.generate(moves, false, |_| true);
    }

    /// The legal moves less the combinations after which the pip cards left can no longer be
    /// split into the triples of a won game (`can_be_completed`), during the first deal those
    /// after which it can no longer end well (`first_deal_can_end`), and once the stock is out
    /// those that take a lone card where a covering one would do (`prefer_covering_cards`);
    /// none at all when a deal to come is doomed (`doomed_ahead`), the first deal cannot end
    /// well, or, with no more than the last deal to come, the cushion cannot be cleared from
    /// the bottom up (`floor_is_closed`). Proofs in `docs/rules/wheel.md`.
    fn search_moves(&self, moves: &mut Vec<Move>) {
        FIRST_DEAL_MEMO.with_borrow_mut(|memo| memo.positions += 1);
        if self.doomed_ahead() || self.floor_is_closed() {
            return;
        }
        let first_deal = self.first_deal.then(|| self.first_deal_values());
        if let Some(state) = first_deal {
            if self.stock_len() > 0 && (self.deal_any_time || !self.combination_possible()) {
                self.note_first_deal_end(state);
            }
        }
        if first_deal.is_some_and(|state| !self.first_deal_can_end(state)) {
            return;
        }
        let left = self.remaining();
        self.generate(moves, true, |triple| {
            let mut after = left;
            for &v in triple {
                after[v as usize] -= 1;
            }
            can_be_completed(&after)
                && first_deal.is_none_or(|state| {
                    self.first_deal_can_end(self.first_deal_after(state, triple))
                })
        });
    }

    /// Cards in the circle, less the cards buried under others on the cushion (a buried card
    /// waits for every card above it), plus the ways left to split the pip cards into a won
    /// game's triples: a combination that keeps more of them open leaves more combinations
    /// for later (`docs/rules/wheel.md`, Search guidance).
    fn heuristic(&self) -> i32 {
        let in_circle: i32 = self.circle.iter().map(|&n| i32::from(n)).sum();
        let buried: i32 = self
            .heights
            .iter()
            .map(|&h| i32::from(h.saturating_sub(1)))
            .sum();
        let splits = two_six_tens(&self.remaining());
        let more_splits = (splits.end() - splits.start()).max(0);
        4 * in_circle - buried + SPLIT_WEIGHT * more_splits
    }

    /// Positions as far through the stock, with the same values in the circle and the same
    /// values on top of the cushion (in any order), are one family: they offer the same
    /// combinations now and differ only in what lies beneath.
    fn family(&self) -> Option<u64> {
        let mut tops = [0u8; CUSHION];
        for (pile, top) in tops.iter_mut().enumerate() {
            *top = self.top(pile).map_or(0, value);
        }
        tops.sort_unstable();
        let fields = tops
            .into_iter()
            .chain(self.circle)
            .chain([self.next, u8::from(self.first_deal)]);
        Some(family_hash(fields.map(u64::from)))
    }

    fn safe_move(&self) -> Option<Move> {
        None
    }

    /// One formula for each stock index where the first deal can end (`formula.rs`).
    fn formula(&self, case: usize) -> Option<Formula<Self>> {
        self.sat_formula(case)
    }

    fn play(&self, mv: Move) -> Self {
        let mut next = *self;
        match mv {
            Move::Deal => {
                next.first_deal = false;
                for pile in 0..CUSHION {
                    next.deal_next(pile);
                }
            }
            Move::Combine { pips, court } => {
                let mut vacated = [pips[0], pips[1], pips[2], court];
                for &pile in &vacated {
                    let card = next.top(pile as usize).expect("an available card");
                    next.circle[value(card) as usize] += 1;
                    next.heights[pile as usize] -= 1;
                    next.values[pile as usize] &= !(0xf << (4 * next.heights[pile as usize]));
                }
                if next.first_deal {
                    vacated.sort_unstable();
                    for pile in vacated {
                        next.deal_next(pile as usize);
                    }
                }
            }
        }
        next
    }

    fn is_won(&self) -> bool {
        self.next == self.len && self.heights.iter().all(|&h| h == 0)
    }

    /// Values only: suits decide no move, so deals that differ only in suits are one position.
    /// No deal will tell the settled positions apart (`first_settled`), so their piles are
    /// sorted: all twelve once the stock is out.
    fn key(&self) -> [u64; 7] {
        let mut piles = self.values;
        piles[self.first_settled()..].sort_unstable();
        let mut key = [0u64; 7];
        for (word, pair) in key.iter_mut().zip(piles.chunks_exact(2)) {
            *word = u64::from(pair[0]) | u64::from(pair[1]) << (4 * PILE_MAX);
        }
        key[6] = u64::from(self.next) | u64::from(self.first_deal) << 7;
        key
    }

    /// Every card replaced by one card of its value (clubs for pips, the jack of clubs for a
    /// court card), the unused pile slots cleared, and the settled piles sorted.
    fn canonical(&self) -> Self {
        let plain = |card: Card| Card::new(Suit::CLUBS, value(card));
        let mut canonical = *self;
        for card in canonical.order.iter_mut() {
            *card = plain(*card);
        }
        for pile in 0..CUSHION {
            for slot in 0..PILE_MAX {
                canonical.piles[pile][slot] = if slot < self.heights[pile] as usize {
                    plain(self.piles[pile][slot])
                } else {
                    Card::new(Suit::CLUBS, 2)
                };
            }
        }
        let settled = self.first_settled();
        let mut piles: Vec<([Card; PILE_MAX], u8)> = canonical.piles[settled..]
            .iter()
            .copied()
            .zip(canonical.heights[settled..].iter().copied())
            .collect();
        piles.sort_by_key(|(cards, height)| (*height, cards.map(value)));
        for (pile, (cards, height)) in (settled..).zip(piles) {
            canonical.piles[pile] = cards;
            canonical.heights[pile] = height;
        }
        for pile in 0..CUSHION {
            canonical.values[pile] = canonical.piles[pile][..canonical.heights[pile] as usize]
                .iter()
                .enumerate()
                .fold(0, |word, (slot, &card)| {
                    word | u32::from(value(card)) << (4 * slot)
                });
        }
        canonical
    }

    fn tally(&self) -> Tally {
        Tally {
            home: self.circle.iter().map(|&n| u16::from(n)).sum(),
            covered: self
                .heights
                .iter()
                .map(|&h| u16::from(h.saturating_sub(1)))
                .sum(),
            spaces: self.heights.iter().filter(|&&h| h == 0).count() as u16,
            stock: self.stock_len() as u16,
        }
    }

    /// The book gives no advice beyond the game's object, "to make as many combinations of
    /// the sum of eighteen as possible with cards in the cushion": a combination is rated by
    /// how many different combinations the cushion's other top cards still offer after it
    /// (`docs/rules/wheel.md`, Strategies).
    fn advice(&self, mv: Move) -> i8 {
        let Move::Combine { pips, court } = mv else {
            return 0;
        };
        let (_, mut count) = self.positions_by_value();
        for &pile in pips.iter().chain(std::iter::once(&court)) {
            count[value(self.top(pile as usize).expect("an available card")) as usize] -= 1;
        }
        if count[COURT as usize] == 0 {
            return 0;
        }
        TRIPLES
            .iter()
            .filter(|t| t.iter().all(|&v| count[v as usize] > 0))
            .count() as i8
    }

    /// `2H(1) 7S(5) 9D(12) KC(3)`: each card with its cushion position (1-12), the pip cards
    /// in ascending value, the court card last; or `deal`.
    fn move_text(&self, mv: Move) -> String {
        match mv {
            Move::Combine { pips, court } => pips
                .iter()
                .chain(std::iter::once(&court))
                .map(|&p| format!("{}({})", self.top(p as usize).expect("a card"), p + 1))
                .collect::<Vec<_>>()
                .join(" "),
            Move::Deal => "deal".to_string(),
        }
    }

    fn layout(&self) -> String {
        let packets = self.circle[COURT as usize];
        let mut out = format!(
            "circle: {packets} crowned packet{}\n",
            if packets == 1 { "" } else { "s" }
        );
        for pile in 0..CUSHION {
            out += &format!(
                "cushion {:>2} (bottom up): {}\n",
                pile + 1,
                self.pile_text(pile)
            );
        }
        out += &format!(
            "stock: {} cards{}{}\n",
            self.stock_len(),
            if self.stock_len() > 0 {
                format!(", next {}", self.order[self.next as usize])
            } else {
                String::new()
            },
            if self.first_deal {
                " (first deal: vacated positions are refilled)"
            } else {
                ""
            }
        );
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The wide last-deal backward game starts once a deal is hard and stops on a deal where
    /// it does not close (`last_deal_floor_budget`).
    #[test]
    fn the_wide_last_deal_search_stops_where_it_does_not_pay() {
        let budget_after = |positions, searched, closed| {
            FIRST_DEAL_MEMO.with_borrow_mut(|memo| {
                memo.positions = positions;
                memo.wide_last_deal_floors = (searched, closed);
            });
            last_deal_floor_budget()
        };
        let (narrow, wide) = (LAST_DEAL_FLOOR_POSITIONS, STALLED_LAST_DEAL_FLOOR_POSITIONS);
        let paying = WIDE_LAST_DEAL_TRIAL / WIDE_LAST_DEAL_YIELD;
        assert_eq!(budget_after(STALL_POSITIONS - 1, 0, 0), narrow);
        assert_eq!(budget_after(STALL_POSITIONS, 0, 0), wide);
        assert_eq!(
            budget_after(STALL_POSITIONS, WIDE_LAST_DEAL_TRIAL - 1, 0),
            wide
        );
        assert_eq!(
            budget_after(STALL_POSITIONS, WIDE_LAST_DEAL_TRIAL, 0),
            narrow
        );
        assert_eq!(
            budget_after(STALL_POSITIONS, WIDE_LAST_DEAL_TRIAL, paying),
            wide
        );
        assert_eq!(
            budget_after(STALL_POSITIONS, WIDE_LAST_DEAL_TRIAL, paying - 1),
            narrow
        );
    }
}
