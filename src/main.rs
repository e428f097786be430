//! The `patience` command: parse, run, and turn any error into one line and exit code 2.

use std::process::ExitCode;

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
