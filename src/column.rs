//! A column of face-down cards under a face-up run built down in alternate colours: the Harp's
//! and Klondike's columns. The face-down cards are fixed by the deal, so a column is how many
//! of them are still down and the run on them; the game keeps the dealt cards beside it.

use crate::alternate_pile::AlternatePile;
use crate::card::{format_stack, Card, Rank};
use crate::game::Tally;
use crate::talon::Talon;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Column {
    /// How many of the column's face-down cards (the first it was dealt) are still down.
    pub down: u8,
    /// At most 13 cards, a king down to an ace, so two bytes of suit bits: a Harp position
    /// is 126 bytes smaller than with the 16 a pile of any height needs.
    pub run: AlternatePile<2>,
}

impl Column {
    pub fn is_empty(&self) -> bool {
        self.down == 0 && self.run.is_empty()
    }

    /// 27 bits: face-down count (below 16) and the run exactly.
    pub fn code(&self) -> u64 {
        u64::from(self.down) | u64::from(self.run.code()) << 4
    }

    /// The height in the run of its card of `rank`, if it holds one: a run goes down a rank a
    /// card from its bottom and never wraps, so it holds each rank once at most.
    pub fn height_of_rank(&self, rank: Rank) -> Option<usize> {
        let bottom = self.run.bottom()?.rank();
        let height = bottom.checked_sub(rank)? as usize;
        (rank > 0 && height < self.run.len()).then_some(height)
    }

    /// Turns the next face-down card up when the run is gone, and says which card it was;
    /// `face_down` holds the column's face-down cards as dealt, the lowest first.
    pub fn turn_up(&mut self, face_down: &[Card]) -> Option<Card> {
        (self.run.is_empty() && self.down > 0).then(|| {
            self.down -= 1;
            let card = face_down[self.down as usize];
            self.run.push(card);
            card
        })
    }
}

/// The face-down cards of a layout dealt as a staircase (columns of one card to `COLUMNS`, the
/// last card of each face up), the lowest of each column first: `CARDS` of them in one array,
/// not an array per column as long as the longest, since a position carries them along.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FaceDown<const COLUMNS: usize, const CARDS: usize> {
    cards: [Card; CARDS],
    /// Column `c`'s cards are `cards[starts[c]..]` up to the next column's start.
    starts: [u8; COLUMNS],
}

impl<const COLUMNS: usize, const CARDS: usize> FaceDown<COLUMNS, CARDS> {
    /// Room for `counts[c]` cards in column `c`, `CARDS` in all.
    pub fn new(counts: [usize; COLUMNS]) -> Self {
        assert_eq!(counts.iter().sum::<usize>(), CARDS, "the face-down cards");
        let mut starts = [0; COLUMNS];
        for c in 1..COLUMNS {
            starts[c] = starts[c - 1] + counts[c - 1] as u8;
        }
        FaceDown {
            cards: [Card::from_index(0); CARDS],
            starts,
        }
    }

    /// Column `c`'s face-down cards as dealt, the lowest first.
    pub fn column(&self, c: usize) -> &[Card] {
        let end = self.starts.get(c + 1).map_or(CARDS, |&s| s as usize);
        &self.cards[self.starts[c] as usize..end]
    }

    /// Deals `card` to column `c` at height `row` (0 the lowest).
    pub fn set(&mut self, c: usize, row: usize, card: Card) {
        debug_assert!(row < self.column(c).len());
        self.cards[self.starts[c] as usize + row] = card;
    }
}

/// Sorts, among themselves and by `order`, the items that `open` picks (the columns with
/// nothing face down), leaving the others in place: those columns differ only in their runs,
/// so they are alike.
fn sort_open_columns<T: Copy, K: Ord, const N: usize>(
    items: &mut [T; N],
    open: impl Fn(&T) -> bool,
    order: impl Fn(&T) -> K,
) {
    let mut slots = [0usize; N];
    let mut picked = *items;
    let mut count = 0;
    for (slot, item) in items.iter().enumerate().filter(|(_, item)| open(item)) {
        slots[count] = slot;
        picked[count] = *item;
        count += 1;
    }
    picked[..count].sort_unstable_by_key(|item| order(item));
    for (&slot, &item) in slots[..count].iter().zip(&picked[..count]) {
        items[slot] = item;
    }
}

/// The columns with nothing face down put in the order their codes sort in (the canonical
/// form of the positions that differ only by which of them is which).
pub fn sorted_columns<const N: usize>(columns: &[Column; N]) -> [Column; N] {
    let mut sorted = *columns;
    sort_open_columns(&mut sorted, |c| c.down == 0, Column::code);
    sorted
}

/// The tally of columns over a stock and waste: covered cards are those face down, face up
/// under another, or in the waste under its top.
pub fn tally<const S: usize>(columns: &[Column], talon: &Talon<S>, home: usize) -> Tally {
    let covered: usize = columns
        .iter()
        .map(|c| c.down as usize + c.run.len().saturating_sub(1))
        .sum();
    Tally {
        home: home as u16,
        covered: (covered + talon.waste_len().saturating_sub(1)) as u16,
        spaces: columns.iter().filter(|c| c.is_empty()).count() as u16,
        stock: talon.stock_len() as u16,
    }
}

/// The columns as text, one line each: `[face down] face up`, bottom up.
pub fn describe<const N: usize, const CARDS: usize>(
    columns: &[Column; N],
    face_down: &FaceDown<N, CARDS>,
) -> String {
    let mut out = String::new();
    for (i, column) in columns.iter().enumerate() {
        let down = &face_down.column(i)[..column.down as usize];
        let down = match down.len() {
            0 => String::new(),
            _ => format!("[{}] ", format_stack(down)),
        };
        let up: Vec<Card> = column.run.cards().collect();
        out += &format!(
            "column {} (bottom up, [face down]): {down}{}\n",
            i + 1,
            format_stack(&up)
        );
    }
    out
}

/// Each column's code, the columns with nothing face down in sorted order: the columns part
/// of a key, alike for positions that differ only by which open column is which.
pub fn sorted_codes<const N: usize>(columns: &[Column; N]) -> [u64; N] {
    let mut codes = columns.map(|c| c.code());
    sort_open_columns(&mut codes, |c| c & 0xF == 0, |&c| c);
    codes
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::card;

    #[test]
    fn face_down_cards_keep_each_column_apart() {
        let mut face_down = FaceDown::<4, 6>::new([0, 1, 2, 3]);
        let dealt = [
            (1, 0, "AS"),
            (2, 0, "2S"),
            (2, 1, "3S"),
            (3, 0, "4S"),
            (3, 1, "5S"),
            (3, 2, "6S"),
        ];
        for (column, row, text) in dealt {
            face_down.set(column, row, card(text));
        }
        let texts = |c: usize| {
            face_down
                .column(c)
                .iter()
                .map(|c| c.to_string())
                .collect::<Vec<_>>()
        };
        assert!(face_down.column(0).is_empty());
        assert_eq!(texts(1), ["AS"]);
        assert_eq!(texts(2), ["2S", "3S"]);
        assert_eq!(texts(3), ["4S", "5S", "6S"]);
    }

    #[test]
    fn a_runs_card_is_found_by_its_rank() {
        let mut column = Column::default();
        assert_eq!(column.height_of_rank(5), None);
        for text in ["9H", "8S", "7D", "6C"] {
            column.run.push(card(text));
        }
        for (rank, height) in [
            (9, Some(0)),
            (7, Some(2)),
            (6, Some(3)),
            (10, None),
            (5, None),
        ] {
            assert_eq!(column.height_of_rank(rank), height, "rank {rank}");
        }
        assert_eq!(column.run.card(2), card("7D"));
    }
}
