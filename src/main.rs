//! The `patience` command: parse, run, and turn any error into one line and exit code 2.

use std::process::ExitCode;

fn main() -> ExitCode {
    // Die quietly on a closed pipe (`patience solve ... | head`), as command-line tools do.
    #[cfg(unix)]
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    match patience::cli::parse(std::env::args_os()).and_then(patience::app::run) {
        Ok(code) => code,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::from(2)
        }
    }
}
