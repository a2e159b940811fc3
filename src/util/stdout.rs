//! Lines for stdout from the command-line tools (`bench`, `perft`, `net`,
//! `train`, `tune`, `spsa`). `println!` panics once the reader has gone
//! (`janggun net info x | grep -q ...`, `janggun perft 6 --divide | head`);
//! here a closed pipe ends the process quietly with status 0, which is how
//! such a pipeline's other tools behave, and any other write error (a full
//! disk) ends it with a message instead of a panic. The protocol loop and the
//! match runner own their stdout and handle a closed one themselves.

use std::io::Write;

/// Writes `text` to stdout and flushes it; never returns if that fails.
pub fn write(text: std::fmt::Arguments) {
    let mut o = std::io::stdout().lock();
    if let Err(e) = o.write_fmt(text).and_then(|_| o.flush()) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("error: writing to stdout: {e}");
        std::process::exit(1);
    }
}

/// `println!` for the tools: see the module comment.
#[macro_export]
macro_rules! outln {
    () => {
        $crate::util::stdout::write(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::util::stdout::write(format_args!("{}\n", format_args!($($arg)*)))
    };
}

/// `print!` for the tools.
#[macro_export]
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::util::stdout::write(format_args!($($arg)*))
    };
}
