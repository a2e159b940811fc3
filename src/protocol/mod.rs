//! The UCI / UCCI protocol loop: stdin is read on its own thread, parsed into
//! [`Command`]s and executed by a [`Session`], whose searches run on a worker
//! thread so that `stop`, `isready`, `ponderhit` and `quit` are answered at
//! once.
//!
//! One job runs at a time. A `go`, `go perft` or `setup` that arrives while
//! a search runs stops it first (its `bestmove` is still printed), so a GUI
//! that forgot `stop` gets an answer to each `go`. Option changes made during
//! a search reach the engine when it is free.

pub mod command;
pub mod dialect;
pub mod options;
pub mod output;
pub mod session;
pub mod setup;
pub mod ucci;
pub mod uci;
pub mod worker;

pub use command::{Command, ParseError};
pub use dialect::Dialect;
pub use output::Writer;
pub use session::{Flow, Session};

use std::io::{self, BufRead};
use std::sync::mpsc;
use std::thread;

/// Longest line kept; longer ones are dropped with an error instead of
/// growing memory without bound.
const MAX_LINE: usize = 16 << 20;

pub enum Input {
    Line(String),
    TooLong(usize),
}

/// Reads one line as bytes (stdin need not be UTF-8). `None` at end of input.
fn read_line(r: &mut impl BufRead, buf: &mut Vec<u8>) -> Option<Input> {
    buf.clear();
    let mut total = 0usize;
    loop {
        let chunk = match r.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(_) => return None,
        };
        if chunk.is_empty() {
            return (total > 0).then(|| finish(buf, total));
        }
        let (take, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (chunk.len(), false),
        };
        if total + take <= MAX_LINE {
            buf.extend_from_slice(&chunk[..take]);
        }
        total += take;
        r.consume(take);
        if done {
            return Some(finish(buf, total));
        }
    }
}

fn finish(buf: &[u8], total: usize) -> Input {
    if total > MAX_LINE {
        Input::TooLong(total)
    } else {
        Input::Line(String::from_utf8_lossy(buf).into_owned())
    }
}

/// Runs the protocol loop on stdin/stdout until `quit` or end of input.
pub fn run() {
    let (tx, rx) = mpsc::channel::<Input>();
    // The reader never waits on anything but stdin, so `stop` and `quit`
    // get through whatever the search is doing.
    thread::spawn(move || {
        let stdin = io::stdin();
        let mut lock = stdin.lock();
        let mut buf = Vec::new();
        while let Some(input) = read_line(&mut lock, &mut buf) {
            if tx.send(input).is_err() {
                break;
            }
        }
    });
    let mut session = Session::new(Writer::stdout());
    for input in rx {
        let flow = match input {
            Input::Line(l) => session.handle_line(&l),
            Input::TooLong(n) => {
                session.report_error(&format!(
                    "line of {n} bytes is longer than {MAX_LINE}; ignored"
                ));
                Flow::Continue
            }
        };
        if flow == Flow::Quit {
            return;
        }
    }
    session.shutdown();
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(bytes: &[u8]) -> Vec<String> {
        let mut r = io::Cursor::new(bytes.to_vec());
        let mut buf = Vec::new();
        let mut out = Vec::new();
        while let Some(i) = read_line(&mut r, &mut buf) {
            out.push(match i {
                Input::Line(s) => s,
                Input::TooLong(n) => format!("<{n}>"),
            });
        }
        out
    }

    #[test]
    fn reads_bytes_lossily() {
        assert_eq!(lines(b"uci\nisready"), vec!["uci\n", "isready"]);
        let l = lines(b"go \xff\xfe depth 1\r\n");
        assert_eq!(l, vec!["go \u{fffd}\u{fffd} depth 1\r\n"]);
        assert!(lines(b"").is_empty());
        assert_eq!(lines(b"\n\n").len(), 2);
    }

    #[test]
    fn overlong_line_is_dropped_not_stored() {
        let mut big = vec![b'x'; MAX_LINE + 10];
        big.extend_from_slice(b"\nquit\n");
        let l = lines(&big);
        assert_eq!(
            l,
            vec![format!("<{}>", MAX_LINE + 11), "quit\n".to_string()]
        );
    }
}
