//! Serialised output: the search thread and the command loop both write, and
//! a GUI must never see two lines run together.

use std::io::{self, Write};
use std::sync::{Arc, Mutex};

#[derive(Clone)]
pub struct Writer {
    sink: Arc<Mutex<Box<dyn Write + Send>>>,
}

impl Writer {
    pub fn new(w: impl Write + Send + 'static) -> Writer {
        Writer {
            sink: Arc::new(Mutex::new(Box::new(w))),
        }
    }

    pub fn stdout() -> Writer {
        Writer::new(io::stdout())
    }

    /// Writes one line and flushes. A closed pipe is not our problem to
    /// report: the GUI is gone, and `quit` or EOF will end the loop.
    pub fn line(&self, s: &str) {
        let mut text = String::with_capacity(s.len() + 1);
        text.push_str(s);
        text.push('\n');
        let mut sink = self.sink.lock().unwrap_or_else(|e| e.into_inner());
        let _ = sink.write_all(text.as_bytes());
        let _ = sink.flush();
    }

    pub fn info_string(&self, s: &str) {
        self.line(&format!("info string {s}"));
    }

    pub fn error(&self, s: &str) {
        self.line(&format!("info string error: {s}"));
    }
}

/// An in-memory sink for tests.
#[cfg(test)]
#[derive(Clone, Default)]
pub struct Capture(pub Arc<Mutex<Vec<u8>>>);

#[cfg(test)]
impl Capture {
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().unwrap()).into_owned()
    }
}

#[cfg(test)]
impl Write for Capture {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}
