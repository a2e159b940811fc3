//! What the runner prints. `println!` panics when stdout is closed
//! (`janggun match ... | head`); here the first write that fails marks
//! stdout closed, nothing more is printed, and the runner stops as it
//! does on Ctrl-C (its files written, the engines ended).

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};

static CLOSED: AtomicBool = AtomicBool::new(false);

/// Prints one line on stdout; false once stdout is closed.
pub fn line(text: &str) -> bool {
    if CLOSED.load(Ordering::Relaxed) {
        return false;
    }
    let mut o = std::io::stdout().lock();
    if writeln!(o, "{text}").and_then(|_| o.flush()).is_err() {
        CLOSED.store(true, Ordering::Relaxed);
        return false;
    }
    true
}

/// Whether a write to stdout has failed.
pub fn closed() -> bool {
    CLOSED.load(Ordering::Relaxed)
}

/// Text for stderr (the progress line): a closed stderr is no reason to
/// stop, nor to panic.
pub fn progress(text: &str) {
    let mut e = std::io::stderr().lock();
    let _ = write!(e, "{text}").and_then(|_| e.flush());
}
