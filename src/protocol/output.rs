//! Serialised output: the search thread and the command loop both write, and
//! a GUI must never see two lines run together. The `Debug Log File`
//! option copies every line in and out, with a timestamp, to a file: when a
//! GUI misbehaves, that file is the first thing to ask a user for.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::sync::{Arc, Mutex};
use std::time::{SystemTime, UNIX_EPOCH};

type Log = Arc<Mutex<Option<BufWriter<File>>>>;

#[derive(Clone)]
pub struct Output {
    sink: Arc<Mutex<Box<dyn Write + Send>>>,
    log: Log,
}

impl Output {
    pub fn new(w: impl Write + Send + 'static) -> Output {
        Output {
            sink: Arc::new(Mutex::new(Box::new(w))),
            log: Arc::new(Mutex::new(None)),
        }
    }

    /// Starts (or, with an empty path, stops) the protocol log. The file is
    /// appended to, so a session's log survives the next one.
    pub fn set_log(&self, path: &str) -> Result<(), String> {
        let mut log = self.log.lock().unwrap_or_else(|e| e.into_inner());
        *log = None;
        if path.is_empty() {
            return Ok(());
        }
        // A FIFO or a device would block the command loop on open (a FIFO
        // waits for a reader) or fill without end: only plain files.
        if let Ok(m) = std::fs::metadata(path) {
            if !m.file_type().is_file() {
                return Err(format!(
                    "'{}' is not a regular file",
                    crate::util::text::clip(path)
                ));
            }
        }
        let f = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| format!("cannot open '{}': {e}", crate::util::text::clip(path)))?;
        *log = Some(BufWriter::new(f));
        Ok(())
    }

    /// Records a line read from the GUI.
    pub fn log_input(&self, line: &str) {
        self.log_line("<<", line);
    }

    fn log_line(&self, dir: &str, line: &str) {
        let mut log = self.log.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(f) = log.as_mut() {
            let t = SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .unwrap_or_default();
            let line = crate::util::text::escape(line.trim_end_matches(['\n', '\r']));
            // A full disk must not stop the engine: the log is best effort.
            let _ = writeln!(f, "{}.{:03} {dir} {line}", t.as_secs(), t.subsec_millis());
            let _ = f.flush();
        }
    }

    pub fn stdout() -> Output {
        Output::new(io::stdout())
    }

    /// Writes one line and flushes. A closed pipe is not our problem to
    /// report: the GUI is gone, and `quit` or EOF will end the loop.
    pub fn line(&self, s: &str) {
        let mut text = String::with_capacity(s.len() + 1);
        text.push_str(s);
        text.push('\n');
        {
            let mut sink = self.sink.lock().unwrap_or_else(|e| e.into_inner());
            let _ = sink.write_all(text.as_bytes());
            let _ = sink.flush();
        }
        self.log_line(">>", s);
    }

    pub fn info_string(&self, s: &str) {
        self.line(&format!("info string {s}"));
    }

    /// `info string error: ...`, with any control bytes that came from
    /// outside escaped (they would corrupt a GUI's log or terminal).
    pub fn error(&self, s: &str) {
        self.line(&format!(
            "info string error: {}",
            crate::util::text::escape(s)
        ));
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
