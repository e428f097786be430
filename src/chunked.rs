//! A stack stored in fixed-size chunks, for the depth-first search's path.
//!
//! A `Vec` grows by doubling: at a growth it holds its old and new buffers at once, and after
//! one up to half its room is unused. A path of a hundred million levels (FreeCell deal 982
//! with two cells) takes gigabytes, so that slack would take a good part of the memory budget
//! from the transposition table. Chunks waste at most one chunk (and keep one spare, so that a
//! path going up and down across a chunk's edge does not allocate each time).

/// Bytes per chunk: small enough that a small search holds little, large enough that a long
/// path has few chunks.
const CHUNK_BYTES: usize = 1 << 16;

pub struct ChunkedStack<T> {
    chunks: Vec<Vec<T>>,
    spare: Option<Vec<T>>,
    len: usize,
}

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
            let chunk = self
                .spare
                .take()
                .unwrap_or_else(|| Vec::with_capacity(Self::CHUNK));
            self.chunks.push(chunk);
        }
        self.chunks
            .last_mut()
            .expect("a chunk with room")
            .push(value);
        self.len += 1;
    }

    pub fn pop(&mut self) -> Option<T> {
        let chunk = self.chunks.last_mut()?;
        let value = chunk.pop().expect("no empty chunk is kept");
        self.len -= 1;
        if chunk.is_empty() {
            self.spare = self.chunks.pop();
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
                self.spare = self.chunks.pop();
            }
        }
    }

    /// Bytes held, spare chunk included.
    pub fn bytes(&self) -> u64 {
        let chunks = self.chunks.len() + usize::from(self.spare.is_some());
        (chunks * Self::CHUNK * size_of::<T>()) as u64
    }

    /// Bytes the stack takes more once `more` elements are pushed.
    pub fn growth(&self, more: usize) -> u64 {
        let room = self.chunks.len() * Self::CHUNK - self.len;
        let new_chunks = more.saturating_sub(room).div_ceil(Self::CHUNK);
        let spare_used = usize::from(self.spare.is_some()).min(new_chunks);
        ((new_chunks - spare_used) * Self::CHUNK * size_of::<T>()) as u64
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
        assert_eq!(stack.bytes(), after);
    }
}
