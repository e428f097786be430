//! The `patience` command: parse, run, and turn any error into one line and exit code 2.

use std::process::ExitCode;

/// Large blocks (a table's slots, a beam's layers) on the kernel's 2 MiB pages where it offers
/// them only on request (transparent huge pages set to `madvise`, as on Debian): a search's
/// table is looked up at random, and with 4 KiB pages nearly every look-up of a large table
/// missed the address cache as well as the data cache. Measured one run of each after the
/// other, both cores busy with other runs (2026-11-27): Harp seed 99997 by the beam from 2800
/// within 3M positions, 2.46-2.82 s of user time against 2.88-3.12 s; the Wheel with
/// `--deal-any-time`, seed 1136 depth-first within 15M (1.8 GiB of table), 19.9-21.2 s against
/// 22.5-23.5 s.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
mod huge_pages {
    use std::alloc::{GlobalAlloc, Layout, System};

    /// Blocks from this size up are advised; smaller ones could not fill a huge page.
    const LARGE: usize = 2 << 20;

    pub struct HugePages;

    /// Asks for huge pages over the whole pages of a block just allocated: glibc hands large
    /// blocks out freshly mapped (`M_MMAP_THRESHOLD` in `main`), so none is touched yet. The
    /// advice changes only how memory is backed, and a refusal changes nothing.
    fn advise(block: *mut u8, size: usize) {
        if block.is_null() || size < LARGE {
            return;
        }
        // SAFETY: sysconf reads a constant; madvise only sets a flag on the pages of this
        // block, which we own, and its result is a hint either way.
        unsafe {
            let page = libc::sysconf(libc::_SC_PAGESIZE).max(4096) as usize;
            let start = (block as usize).next_multiple_of(page);
            let end = (block as usize + size) / page * page;
            if end > start {
                libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE);
            }
        }
    }

    // SAFETY: every call is the system allocator's, with the same arguments; `advise` only
    // adds a hint on the block returned.
    unsafe impl GlobalAlloc for HugePages {
        unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
            let block = unsafe { System.alloc(layout) };
            advise(block, layout.size());
            block
        }

        unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
            let block = unsafe { System.alloc_zeroed(layout) };
            advise(block, layout.size());
            block
        }

        unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
            let block = unsafe { System.realloc(ptr, layout, new_size) };
            advise(block, new_size);
            block
        }

        unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
            unsafe { System.dealloc(ptr, layout) }
        }
    }
}

#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[global_allocator]
static ALLOCATOR: huge_pages::HugePages = huge_pages::HugePages;

fn main() -> ExitCode {
    // Die quietly on a closed pipe (`patience solve ... | head`), as command-line tools do.
    #[cfg(unix)]
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    // Large blocks (a table shard's slots, a path's chunks) straight from the system and back
    // to it when freed. glibc otherwise raises this threshold as blocks are freed and serves
    // them from its heaps, where the freed slots of shards that grew stay resident: FreeCell
    // deal 982 (two cells, layered) held 34% more than its budget counted at 90M positions,
    // 9% with the threshold fixed, and a budget near the machine's memory would not hold.
    //
    // Fixing that threshold also fixes glibc's trim threshold, so the heap top was handed back
    // whenever 128 KiB lay free there and faulted in again at the next allocation: the beam,
    // which builds and drops its layers over and over, spent a quarter of the Harp's time in
    // the kernel. A 64 MiB pad keeps that much at the top (Harp seeds 1000-1049 within 300k
    // positions, one thread: 7.9 s against 11.8 s, the kernel's share from 3.2 s to 0.04 s).
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 128 << 10);
        libc::mallopt(libc::M_TOP_PAD, 64 << 20);
    }
    match patience::cli::parse(std::env::args_os()).and_then(patience::app::run) {
        Ok(code) => code,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::from(2)
        }
    }
}
