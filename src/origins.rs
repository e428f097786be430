//! The layered search's record of where each entry came from (`src/solver/layered.rs`), kept in a
//! temporary file. It is written once per entry and read only to find a win's line again, yet over
//! a long proof it grows to more entries than any layer holds at once (FreeCell deal 982 with two
//! cells: hundreds of millions), so in memory it would take the room the tables need. Where no
//! temporary file can be made it is held in memory.

use crate::chunked::ChunkedStack;
use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Read, Seek, SeekFrom, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};

/// Where an entry came from: the entry whose layer's search reached it (`u32::MAX` for the
/// deal), and the mark by which that search's moves out tell it apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Origin {
    pub from: u32,
    pub mark: u64,
}

/// An origin's bytes in the file (a struct would be padded to 16).
const RECORD: usize = 12;
type Record = [u8; RECORD];

impl Origin {
    fn record(self) -> Record {
        let mut record = [0; RECORD];
        record[..4].copy_from_slice(&self.from.to_le_bytes());
        record[4..].copy_from_slice(&self.mark.to_le_bytes());
        record
    }

    fn from_record(record: Record) -> Origin {
        let (from, mark) = record.split_at(4);
        Origin {
            from: u32::from_le_bytes(from.try_into().expect("four bytes")),
            mark: u64::from_le_bytes(mark.try_into().expect("eight bytes")),
        }
    }
}

/// The origins of every entry made so far, by entry number.
pub struct Origins {
    store: Store,
    len: usize,
}

enum Store {
    /// A file already unlinked, so that it goes with the process however the process ends.
    File(BufWriter<File>),
    Memory(ChunkedStack<Record>),
    /// A write failed (the disk is full): nothing more can be recorded.
    Failed,
}

/// Makes each temporary file's name unique within the process.
static FILES: AtomicU64 = AtomicU64::new(0);

/// A new file in the system's temporary directory (`TMPDIR`), open for reading and writing
/// and already unlinked.
fn unlinked_temporary_file() -> std::io::Result<File> {
    let name = format!(
        "patience-origins-{}-{}",
        std::process::id(),
        FILES.fetch_add(1, Ordering::Relaxed)
    );
    let path: PathBuf = std::env::temp_dir().join(name);
    let file = OpenOptions::new()
        .read(true)
        .write(true)
        .create_new(true)
        .open(&path)?;
    std::fs::remove_file(&path)?;
    Ok(file)
}

impl Origins {
    /// Held in a temporary file if one can be made, else in memory.
    pub fn new() -> Self {
        let store = match unlinked_temporary_file() {
            Ok(file) => Store::File(BufWriter::with_capacity(1 << 16, file)),
            Err(_) => Store::Memory(ChunkedStack::new()),
        };
        Origins { store, len: 0 }
    }

    /// Held in memory.
    pub fn in_memory() -> Self {
        Origins {
            store: Store::Memory(ChunkedStack::new()),
            len: 0,
        }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Records the next entry's origin; `false` when it cannot (the file could not grow), after
    /// which nothing more is recorded.
    pub fn push(&mut self, origin: Origin) -> bool {
        let written = match &mut self.store {
            Store::File(file) => file.write_all(&origin.record()).is_ok(),
            Store::Memory(records) => {
                records.push(origin.record());
                true
            }
            Store::Failed => false,
        };
        if written {
            self.len += 1;
        } else {
            self.store = Store::Failed;
        }
        written
    }

    /// Entry `index`'s origin.
    pub fn get(&mut self, index: usize) -> Origin {
        assert!(index < self.len, "origin {index} of {}", self.len);
        let mut record = [0; RECORD];
        match &mut self.store {
            Store::File(file) => {
                let read = file.flush().and_then(|()| {
                    let file = file.get_mut();
                    file.seek(SeekFrom::Start((index * RECORD) as u64))?;
                    let read = file.read_exact(&mut record);
                    file.seek(SeekFrom::End(0))?;
                    read
                });
                read.expect("the layered search reads back the origins it wrote");
            }
            Store::Memory(records) => record = records.get(index),
            Store::Failed => panic!("the origins were lost when a write failed"),
        }
        Origin::from_record(record)
    }

    /// The memory held: the file's buffer, or the records.
    pub fn bytes(&self) -> u64 {
        match &self.store {
            Store::File(file) => file.capacity() as u64,
            Store::Memory(records) => records.bytes(),
            Store::Failed => 0,
        }
    }
}

impl Default for Origins {
    fn default() -> Self {
        Origins::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn origin(i: u32) -> Origin {
        Origin {
            from: i.wrapping_mul(7),
            mark: u64::from(i).wrapping_mul(0x9e37_79b9_7f4a_7c15),
        }
    }

    /// Both stores give back what was written, read between writes too.
    #[test]
    fn origins_read_back_what_was_written() {
        for mut origins in [Origins::new(), Origins::in_memory()] {
            for i in 0..20_000 {
                assert!(origins.push(origin(i)));
                if i % 997 == 0 {
                    assert_eq!(origins.get(i as usize / 2), origin(i / 2));
                }
            }
            assert_eq!(origins.len(), 20_000);
            for i in (0..20_000).step_by(13) {
                assert_eq!(origins.get(i as usize), origin(i));
            }
        }
    }

    /// A write that fails (here to a full device) ends the recording for good.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_full_disk_stops_the_recording() {
        let full = OpenOptions::new().write(true).open("/dev/full").unwrap();
        let mut origins = Origins {
            store: Store::File(BufWriter::with_capacity(1 << 16, full)),
            len: 0,
        };
        let written = (0..20_000).take_while(|&i| origins.push(origin(i))).count();
        assert!(written < 20_000, "every write taken");
        assert_eq!(origins.len(), written);
        assert!(!origins.push(origin(0)));
        assert_eq!(origins.len(), written);
    }

    #[test]
    fn a_file_store_holds_only_its_buffer() {
        let mut origins = Origins::new();
        for i in 0..100_000 {
            origins.push(origin(i));
        }
        assert!(origins.bytes() <= 1 << 16, "{} bytes", origins.bytes());
    }
}
