//! The protocol loop. stdin is read on its own thread; its lines and the
//! core's job reports arrive on one channel and are handled in order by one
//! [`Conversation`]: a core that owns the engine, the options and the
//! running job, and a dialect (UCI, UCCI or CECP) that parses lines into
//! typed commands and renders the answers.
//!
//! One job runs at a time. Jobs run on a worker thread, so `stop`,
//! `isready`, `ponderhit`, `?`, `ping` and `quit` are answered at once.

pub mod cecp;
pub mod command;
pub mod conversation;
pub mod core;
pub mod dialect;
pub mod input;
pub mod options;
pub mod output;
pub mod session;
pub mod setup;
pub mod ucci;
pub mod uci;
pub mod worker;
pub mod xboard;

pub use command::{Command, ParseError};
pub use conversation::Conversation;
pub use dialect::Dialect;
pub use output::Output;

use self::core::Event;
use std::io;
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
}

/// How long `quit` waits for a search to stop before leaving anyway.
const QUIT_GRACE: Duration = Duration::from_secs(2);

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
        while let Some(line) = input::read_line(&mut lock, &mut buf) {
            if reader.send(Event::Line(line)).is_err() {
                return;
            }
        }
        let _ = reader.send(Event::Eof);
    });
    let mut conversation = Conversation::new(Output::stdout(), tx);
    for event in rx.iter() {
        if conversation.event(event) == Flow::Quit {
            return;
        }
    }
}
