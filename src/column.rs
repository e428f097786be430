//! A column of face-down cards under a face-up run built down in alternate colours: the Harp's
//! and Klondike's columns. The face-down cards are fixed by the deal, so a column is how many
//! of them are still down and the run on them; the game keeps the dealt cards beside it.

use crate::alternate_pile::AlternatePile;
use crate::card::Card;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Column {
    /// How many of the column's face-down cards (the first it was dealt) are still down.
    pub down: u8,
    pub run: AlternatePile,
}

impl Column {
    pub fn is_empty(&self) -> bool {
        self.down == 0 && self.run.is_empty()
    }

    /// 27 bits: face-down count (below 16) and the run exactly.
    pub fn code(&self) -> u64 {
        u64::from(self.down) | u64::from(self.run.code()) << 4
    }

    /// Turns the next face-down card up when the run is gone; `face_down` holds the column's
    /// face-down cards as dealt, the lowest first.
    pub fn turn_up(&mut self, face_down: &[Card]) {
        if self.run.is_empty() && self.down > 0 {
            self.down -= 1;
            self.run.push(face_down[self.down as usize]);
        }
    }
}

/// Sorts, among themselves and by `order`, the items that `open` picks (the columns with
/// nothing face down), leaving the others in place: those columns differ only in their runs,
/// so they are alike.
pub fn sort_open_columns<T: Copy, K: Ord, const N: usize>(
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
