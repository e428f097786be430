//! The time a search takes, read from the CPU clock of the thread that runs it. A deal is
//! searched on one thread from start to end, so its thread's CPU time is the search's cost; the
//! wall clock would also count the time other work held the core (these machines are shared,
//! and a batch runs beside others or is paused and continued), which made "CPU seconds" grow
//! with the load: a Sedgewick deal of 500,000 positions once showed 4.8 minutes.

/// A stopwatch of the calling thread's CPU time (user and system). Where no thread clock is
/// known (outside Unix), it falls back to the wall clock.
pub struct CpuClock {
    #[cfg(unix)]
    started: f64,
    #[cfg(not(unix))]
    started: std::time::Instant,
}

impl CpuClock {
    pub fn start() -> Self {
        #[cfg(unix)]
        let started = thread_cpu_seconds();
        #[cfg(not(unix))]
        let started = std::time::Instant::now();
        CpuClock { started }
    }

    /// Seconds of CPU time this thread has spent since `start`.
    pub fn seconds(&self) -> f64 {
        #[cfg(unix)]
        let seconds = thread_cpu_seconds() - self.started;
        #[cfg(not(unix))]
        let seconds = self.started.elapsed().as_secs_f64();
        seconds
    }
}

#[cfg(unix)]
fn thread_cpu_seconds() -> f64 {
    let mut now = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes only the timespec it is given, which outlives the call.
    let status = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut now) };
    assert_eq!(status, 0, "the thread's CPU clock is readable");
    now.tv_sec as f64 + now.tv_nsec as f64 * 1e-9
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_work_and_not_sleep() {
        let clock = CpuClock::start();
        let mut sum = 0u64;
        for i in 0..20_000_000u64 {
            sum = sum.wrapping_add(std::hint::black_box(i) * i);
        }
        std::hint::black_box(sum);
        let worked = clock.seconds();
        assert!(worked > 0.0);
        std::thread::sleep(std::time::Duration::from_millis(200));
        #[cfg(unix)]
        assert!(clock.seconds() - worked < 0.1, "sleeping costs no CPU time");
    }
}
