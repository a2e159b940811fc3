//! The protocol loop: stdin is read on its own thread. A first line `xboard`
//! selects CECP (an [`xboard::Xboard`] conversation); anything else UCI or
//! UCCI, parsed into [`Command`]s and executed by a [`Session`]. Searches
//! run on a worker thread so that `stop`, `isready`, `ponderhit` and `quit`
//! are answered at once.
//!
//! One job runs at a time. A `go`, `go perft` or `setup` that arrives while
//! a search runs stops it first (its `bestmove` is still printed), so a GUI
//! that forgot `stop` gets an answer to each `go`. Option changes made during
//! a search reach the engine when it is free.

pub mod cecp;
pub mod command;
pub mod dialect;
pub mod options;
pub mod output;
pub mod session;
pub mod setup;
pub mod ucci;
pub mod uci;
pub mod worker;
pub mod xboard;

pub use command::{Command, ParseError};
pub use dialect::Dialect;
pub use output::Writer;
pub use session::{Flow, Session};

use crate::board::Move;
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

/// What the command loop waits for: a line from the GUI, or (CECP) a
/// search that finished and wants its move played.
pub enum Event {
    Input(Input),
    SearchDone {
        id: u64,
        best: Option<Move>,
        ponder: Option<Move>,
    },
    /// stdin is closed. Sent because the loop itself holds a sender (for
    /// CECP's searches), so the channel never closes on its own.
    Eof,
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
    let (tx, rx) = mpsc::channel::<Event>();
    let reader = tx.clone();
    // The reader never waits on anything but stdin, so `stop` and `quit`
    // get through whatever the search is doing.
    thread::spawn(move || {
        let stdin = io::stdin();
        let mut lock = stdin.lock();
        let mut buf = Vec::new();
        while let Some(input) = read_line(&mut lock, &mut buf) {
            if reader.send(Event::Input(input)).is_err() {
                return;
            }
        }
        let _ = reader.send(Event::Eof);
    });
    let mut session = Session::new(Writer::stdout());
    let mut cecp: Option<xboard::Xboard> = None;
    for event in rx.iter() {
        let input = match event {
            Event::Input(i) => i,
            Event::Eof => break,
            Event::SearchDone { id, best, ponder } => {
                if let Some(x) = cecp.as_mut() {
                    x.search_done(id, best, ponder);
                }
                continue;
            }
        };
        if let Some(x) = cecp.as_mut() {
            let more = match input {
                Input::Line(l) => x.handle_line(&l),
                Input::TooLong(n) => {
                    Writer::stdout()
                        .line(&format!("Error (line of {n} bytes is too long): ignored"));
                    true
                }
            };
            if !more {
                return;
            }
            continue;
        }
        let flow = match input {
            Input::Line(l) if session.is_fresh() && l.trim() == "xboard" => {
                let mut x = xboard::Xboard::new(Writer::stdout(), tx.clone());
                x.handle_line(&l);
                cecp = Some(x);
                Flow::Continue
            }
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
    match cecp.as_mut() {
        Some(x) => x.shutdown(),
        None => session.shutdown(),
    }
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
