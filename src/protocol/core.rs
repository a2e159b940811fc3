//! The conversation core: the one owner of the engine and its table, the
//! option values, the running job and the answer it holds back. UCI, UCCI
//! and CECP sessions drive it; none keeps an engine or a job of its own, so
//! a process holds one engine in every mode.
//!
//! A job (search, perft, setup choice) runs on a worker thread and returns
//! its answer through its join handle; when it ends by itself it sends
//! [`Event::JobDone`] so the command loop collects it. `stop`, `?` and
//! anything that replaces a job collect it at once instead, so the answer
//! is written before whatever the next command prints.

use super::dialect::Dialect;
use super::input::StdinLine;
use super::options::{self, Config, Effect, OptionDef};
use super::output::Output;
use crate::board::Move;
use crate::search::{Control, Engine};
use std::sync::mpsc::Sender;
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

/// What the command loop waits for.
pub enum Event {
    Line(StdinLine),
    /// The job with this id ended by itself.
    JobDone(u64),
    /// stdin is closed. Sent because the loop holds a sender of its own
    /// (for the jobs), so the channel never closes by itself.
    Eof,
}

/// What a job is for, which decides what its answer becomes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// UCI/UCCI `go`: the answer is a `bestmove` line.
    Go,
    /// CECP: the answer is played on the game's board.
    Play,
    /// CECP: pondering on the position after the move we expect; a
    /// matching `usermove` turns it into `Play`.
    Ponder(Move),
    /// CECP `analyze`: no answer is played.
    Analyze,
    /// perft, setup: the job writes its own lines.
    Other,
}

/// A search's result.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    pub best: Option<Move>,
    pub ponder: Option<Move>,
}

/// A job collected: what it was for and what it found.
pub struct Finished {
    pub purpose: Purpose,
    pub answer: Option<Answer>,
}

struct Job {
    id: u64,
    purpose: Purpose,
    handle: JoinHandle<Option<Answer>>,
}

/// The result of `set_option`, for the dialect to act on and word.
pub enum OptionOutcome {
    Set(&'static OptionDef, Effect),
    /// Accepted and ignored (a Fairy-Stockfish option meaning nothing here).
    Ignored,
    Unknown,
    /// The value was refused; the option keeps `current`.
    Refused {
        error: String,
        current: String,
    },
}

/// What a job's thread gets to work with.
pub struct JobContext {
    pub engine: Arc<Mutex<Engine>>,
    pub control: Control,
    pub out: Output,
}

impl JobContext {
    pub fn engine(&self) -> MutexGuard<'_, Engine> {
        self.engine.lock().unwrap_or_else(|e| e.into_inner())
    }
}

pub struct Core {
    pub out: Output,
    pub config: Config,
    /// The dialect the GUI speaks, held here and nowhere else: chosen by
    /// the conversation (`xboard`) or the UCI session (`uci`, `ucci`),
    /// read by everything that words an answer.
    dialect: Dialect,
    engine: Arc<Mutex<Engine>>,
    control: Control,
    job: Option<Job>,
    next_id: u64,
    events: Sender<Event>,
    /// Option changes that arrived while the engine was busy: applied when
    /// the job ends, so that a search is never cut short by a setting.
    settings_pending: bool,
    clear_pending: bool,
}

impl Core {
    pub fn new(out: Output, events: Sender<Event>) -> Core {
        let config = Config::default();
        Core {
            out,
            engine: Arc::new(Mutex::new(Engine::new(config.settings.clone()))),
            config,
            dialect: Dialect::Uci,
            control: Control::new(),
            job: None,
            next_id: 1,
            events,
            settings_pending: false,
            clear_pending: false,
        }
    }

    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    pub fn set_dialect(&mut self, dialect: Dialect) {
        self.dialect = dialect;
    }

    /// The purpose of the job still running, if any.
    pub fn running(&self) -> Option<Purpose> {
        self.job
            .as_ref()
            .filter(|j| !j.handle.is_finished())
            .map(|j| j.purpose)
    }

    /// A ponder search became a real one (CECP: the expected move came).
    pub fn repurpose(&mut self, purpose: Purpose) {
        if let Some(j) = self.job.as_mut() {
            j.purpose = purpose;
        }
    }

    pub fn ponderhit(&self) {
        self.control.ponderhit();
    }

    /// Starts a job. Whatever ran before is collected first and its answer
    /// dropped: a dialect that wants it calls `finish` before.
    pub fn start(
        &mut self,
        purpose: Purpose,
        work: impl FnOnce(&JobContext) -> Option<Answer> + Send + 'static,
    ) {
        self.finish();
        self.control.reset();
        let id = self.next_id;
        self.next_id += 1;
        let ctx = JobContext {
            engine: self.engine.clone(),
            control: self.control.clone(),
            out: self.out.clone(),
        };
        let events = self.events.clone();
        let handle = thread::spawn(move || {
            let answer = work(&ctx);
            // The loop may be gone (end of input); nothing to tell then.
            let _ = events.send(Event::JobDone(id));
            answer
        });
        self.job = Some(Job {
            id,
            purpose,
            handle,
        });
    }

    /// Stops the running job, waits for it and returns it.
    pub fn finish(&mut self) -> Option<Finished> {
        let job = self.job.take()?;
        self.control.stop();
        Some(self.collect(job))
    }

    /// The job `id` ended by itself: collects it, unless it was replaced
    /// or collected already.
    pub fn done(&mut self, id: u64) -> Option<Finished> {
        if self.job.as_ref().is_some_and(|j| j.id == id) {
            let job = self.job.take()?;
            return Some(self.collect(job));
        }
        None
    }

    /// `quit` and end of input: stops the job and waits for it a while.
    /// A job that does not stop in time is left behind (the process ends).
    pub fn shutdown(&mut self, grace: Duration) -> Option<Finished> {
        let job = self.job.take()?;
        self.control.stop();
        let start = Instant::now();
        while !job.handle.is_finished() && start.elapsed() < grace {
            thread::sleep(Duration::from_millis(1));
        }
        job.handle.is_finished().then(|| self.collect(job))
    }

    fn collect(&mut self, job: Job) -> Finished {
        // A job that panicked answers nothing rather than taking the loop down.
        let answer = job.handle.join().unwrap_or(None);
        self.sync_engine();
        Finished {
            purpose: job.purpose,
            answer,
        }
    }

    fn busy(&self) -> bool {
        self.job.as_ref().is_some_and(|j| !j.handle.is_finished())
    }

    /// Hands option changes to the engine once it is free.
    fn sync_engine(&mut self) {
        if self.busy() || !(self.settings_pending || self.clear_pending) {
            return;
        }
        let engine = self.engine.clone();
        let mut engine = engine.lock().unwrap_or_else(|e| e.into_inner());
        if self.settings_pending {
            if let Err(e) = engine.apply(self.config.settings.clone()) {
                // The engine kept a smaller table; the option says which.
                self.config.settings.hash_mb = engine.settings().hash_mb;
                self.error("Hash", &e);
            }
        }
        if self.clear_pending {
            engine.clear();
        }
        self.settings_pending = false;
        self.clear_pending = false;
    }

    /// Clears the table and histories now, or when the running job ends.
    pub fn clear_hash(&mut self) {
        self.clear_pending = true;
        self.sync_engine();
    }

    /// Sets an option in the one table. The engine gets it now if it is
    /// free, or when the running job ends; a job is never stopped for it.
    pub fn set_option(&mut self, name: &str, value: Option<&str>) -> OptionOutcome {
        if options::is_ignored(name) {
            return OptionOutcome::Ignored;
        }
        let Some(def) = options::find(name) else {
            return OptionOutcome::Unknown;
        };
        let effect = match options::set(&mut self.config, def, value) {
            Ok(e) => e,
            Err(error) => {
                let current = options::current(&self.config, def.id);
                return OptionOutcome::Refused { error, current };
            }
        };
        match effect {
            Effect::Settings => {
                self.settings_pending = true;
                self.sync_engine();
            }
            Effect::ClearHash => self.clear_hash(),
            Effect::DebugLog => {
                if let Err(e) = self.out.set_log(&self.config.debug_log) {
                    self.config.debug_log.clear();
                    self.error("Debug Log File", &e);
                }
            }
            Effect::None | Effect::Variant => {}
        }
        OptionOutcome::Set(def, effect)
    }

    /// An error in the dialect's words: UCI/UCCI `info string error: ...`,
    /// CECP `Error (...): ...`. Control bytes from outside are escaped.
    pub fn error(&self, what: &str, why: &str) {
        match self.dialect {
            Dialect::Uci | Dialect::Ucci => self.out.error(&format!("{what}: {why}")),
            Dialect::Cecp => self.out.line(&format!(
                "Error ({}): {}",
                crate::util::text::escape(why),
                crate::util::text::escape(what)
            )),
        }
    }

    /// The engine, for work on the loop's thread (CECP `new`); waits for a
    /// running job, so callers finish it first.
    pub fn engine(&self) -> MutexGuard<'_, Engine> {
        self.engine.lock().unwrap_or_else(|e| e.into_inner())
    }
}
