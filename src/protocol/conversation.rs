//! One conversation with a GUI: the core (engine, table, options, job) and
//! the dialect the GUI speaks. The first command picks the dialect: `xboard`
//! selects CECP, anything else UCI (or UCCI after `ucci`).

use super::command::{Command, ParseError};
use super::core::{Core, Event};
use super::dialect::Dialect;
use super::input::{StdinLine, MAX_LINE};
use super::output::Output;
use super::session::UciSession;
use super::xboard::CecpSession;
use super::Flow;
use std::sync::mpsc::Sender;

enum Mode {
    Uci(UciSession),
    Cecp(CecpSession),
}

pub struct Conversation {
    core: Core,
    mode: Mode,
    /// Nothing has been said yet, so a first `xboard` may still pick CECP.
    fresh: bool,
}

impl Conversation {
    /// `events` is the channel the command loop reads: jobs report on it.
    pub fn new(out: Output, events: Sender<Event>) -> Conversation {
        let core = Core::new(out, events);
        let session = UciSession::new(&core);
        Conversation {
            core,
            mode: Mode::Uci(session),
            fresh: true,
        }
    }

    pub fn dialect(&self) -> Dialect {
        self.core.dialect()
    }

    pub fn core(&self) -> &Core {
        &self.core
    }

    /// The UCI/UCCI session, for tests that look inside it.
    pub fn uci(&self) -> Option<&UciSession> {
        match &self.mode {
            Mode::Uci(s) => Some(s),
            Mode::Cecp(_) => None,
        }
    }

    /// The CECP game, for tests that look inside it.
    pub fn cecp(&self) -> Option<&CecpSession> {
        match &self.mode {
            Mode::Cecp(s) => Some(s),
            Mode::Uci(_) => None,
        }
    }

    /// Handles one event of the command loop.
    pub fn event(&mut self, event: Event) -> Flow {
        match event {
            Event::Line(StdinLine::Line(l)) => self.line(&l),
            Event::Line(StdinLine::TooLong(n)) => {
                let why = format!("line of {n} bytes is longer than {MAX_LINE}");
                self.core.error("input", &why);
                Flow::Continue
            }
            Event::JobDone(id) => {
                if let Some(f) = self.core.done(id) {
                    match &mut self.mode {
                        Mode::Uci(s) => s.finished(&self.core, f),
                        Mode::Cecp(s) => s.finished(&mut self.core, f),
                    }
                }
                Flow::Continue
            }
            Event::Eof => {
                self.shutdown();
                Flow::Quit
            }
        }
    }

    /// Handles one line from the GUI.
    pub fn line(&mut self, line: &str) -> Flow {
        self.core.out.log_input(line);
        let was_fresh = self.fresh;
        if !line.trim().is_empty() {
            self.fresh = false;
        }
        if was_fresh && line.trim() == "xboard" {
            self.core.set_dialect(Dialect::Cecp);
            self.mode = Mode::Cecp(CecpSession::new(&self.core));
        }
        let session = match &mut self.mode {
            Mode::Cecp(s) => return s.handle_line(&mut self.core, line),
            Mode::Uci(s) => s,
        };
        session.note_line(line);
        match line.parse::<Command>() {
            Ok(cmd) => session.execute(&mut self.core, cmd),
            Err(ParseError::Empty) => Flow::Continue,
            Err(e) => {
                self.core.out.error(&e.to_string());
                Flow::Continue
            }
        }
    }

    /// End of input: stop whatever runs and leave.
    pub fn shutdown(&mut self) {
        match &mut self.mode {
            Mode::Uci(s) => s.shutdown(&mut self.core),
            Mode::Cecp(_) => {
                self.core.shutdown(super::QUIT_GRACE);
            }
        }
    }
}

#[cfg(test)]
#[path = "conversation_tests.rs"]
mod tests;
