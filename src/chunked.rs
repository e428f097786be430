//! A stack stored in fixed-size chunks, for the depth-first search's path.
//!
//! A `Vec` grows by doubling: at a growth it holds its old and new buffers at once, and after
//! one up to half its room is unused. A path of a hundred million levels (FreeCell deal 982
//! with two cells) takes gigabytes, so that slack would take a good part of the memory budget
//! from the transposition table. Chunks waste at most one chunk (and keep one spare, so that a
//! path going up and down across a chunk's edge does not allocate each time). A chunk's room
//! grows by doubling up to the chunk's size, so that a stack that stays small (one of the
//! layered search's many small layers) holds little.

/// Bytes per chunk: small enough that a small search holds little, large enough that a long
/// path has few chunks.
const CHUNK_BYTES: usize = 1 << 16;

pub struct ChunkedStack<T> {
    chunks: Vec<Vec<T>>,
    spare: Option<Vec<T>>,
    len: usize,
    /// Elements of room in the chunks and the spare.
    room: usize,
}

/// A chunk's first room, in elements.
const FIRST_ROOM: usize = 16;

impl<T: Copy> ChunkedStack<T> {
    /// Elements per chunk.
    const CHUNK: usize = if size_of::<T>() >= CHUNK_BYTES {
        1
    } else {
        CHUNK_BYTES / size_of::<T>()
    };

    pub fn new() -> Self {
        ChunkedStack {
            chunks: Vec::new(),
            spare: None,
            len: 0,
            room: 0,
        }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn push(&mut self, value: T) {
        if self.len.is_multiple_of(Self::CHUNK) {
            let chunk = self.spare.take().unwrap_or_default();
            self.chunks.push(chunk);
        }
        let chunk = self.chunks.last_mut().expect("a chunk");
        if chunk.len() == chunk.capacity() {
            let before = chunk.capacity();
            let wanted = (before * 2).clamp(FIRST_ROOM.min(Self::CHUNK), Self::CHUNK);
            chunk.reserve_exact(wanted - chunk.len());
            self.room += chunk.capacity() - before;
        }
        chunk.push(value);
        self.len += 1;
    }

    /// Keeps an emptied last chunk as the spare.
    fn drop_last_chunk(&mut self) {
        let chunk = self.chunks.pop().expect("a chunk to drop");
        if let Some(old) = self.spare.replace(chunk) {
            self.room -= old.capacity();
        }
    }

    pub fn pop(&mut self) -> Option<T> {
        let chunk = self.chunks.last_mut()?;
        let value = chunk.pop().expect("no empty chunk is kept");
        self.len -= 1;
        if chunk.is_empty() {
            self.drop_last_chunk();
        }
        Some(value)
    }

    pub fn last(&self) -> Option<T> {
        self.len.checked_sub(1).map(|i| self.get(i))
    }

    pub fn get(&self, index: usize) -> T {
        assert!(index < self.len, "index {index} beyond {}", self.len);
        self.chunks[index / Self::CHUNK][index % Self::CHUNK]
    }

    pub fn set(&mut self, index: usize, value: T) {
        assert!(index < self.len, "index {index} beyond {}", self.len);
        self.chunks[index / Self::CHUNK][index % Self::CHUNK] = value;
    }

    /// Keeps the first `len` elements.
    pub fn truncate(&mut self, len: usize) {
        while self.len > len {
            let chunk = self.chunks.last_mut().expect("elements beyond len");
            let keep = chunk.len().saturating_sub(self.len - len);
            self.len -= chunk.len() - keep;
            chunk.truncate(keep);
            if chunk.is_empty() {
                self.drop_last_chunk();
            }
        }
    }

    /// Bytes held, spare chunk included.
    pub fn bytes(&self) -> u64 {
        (self.room * size_of::<T>()) as u64
    }

    /// At most the bytes the stack takes more once `more` elements are pushed: the last
    /// chunk's room grown to a whole chunk, and whole new chunks, less the spare's room.
    pub fn growth(&self, more: usize) -> u64 {
        if more == 0 {
            return 0;
        }
        let filling = self
            .chunks
            .last()
            .map_or(0, |last| Self::CHUNK - last.capacity());
        let room = self.chunks.len() * Self::CHUNK - self.len;
        let new_chunks = more.saturating_sub(room).div_ceil(Self::CHUNK);
        let spare = match new_chunks {
            0 => 0,
            _ => self.spare.as_ref().map_or(0, Vec::capacity),
        };
        ((filling + new_chunks * Self::CHUNK - spare) * size_of::<T>()) as u64
    }
}

impl<T: Copy> Default for ChunkedStack<T> {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn behaves_as_a_vec_across_chunk_edges() {
        let mut stack = ChunkedStack::new();
        let mut model = Vec::new();
        let mut state = 1u64;
        for step in 0..1_000_000u64 {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            match state >> 61 {
                0..=4 => {
                    stack.push(step);
                    model.push(step);
                }
                5 => assert_eq!(stack.pop(), model.pop()),
                6 => {
                    let keep = model.len().saturating_sub((state >> 40) as usize % 100_000);
                    stack.truncate(keep);
                    model.truncate(keep);
                }
                _ => {
                    if let Some(i) = (state as usize).checked_rem(model.len()) {
                        stack.set(i, step);
                        model[i] = step;
                    }
                }
            }
            assert_eq!(stack.len(), model.len());
            assert_eq!(stack.last(), model.last().copied());
        }
        assert!((0..model.len()).all(|i| stack.get(i) == model[i]));
        let chunk = ChunkedStack::<u64>::CHUNK;
        let most = (model.len().div_ceil(chunk) + 1) * chunk * size_of::<u64>();
        assert!(stack.bytes() <= most as u64);
        let after = stack.bytes() + stack.growth(3 * chunk);
        for i in 0..3 * chunk as u64 {
            stack.push(i);
        }
        assert!(stack.bytes() <= after);
    }

    #[test]
    fn a_small_stack_holds_little() {
        let mut stack = ChunkedStack::new();
        for i in 0..20u64 {
            stack.push(i);
        }
        assert_eq!(stack.bytes(), 32 * 8);
    }
}
