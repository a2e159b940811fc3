//! Running the binary as a hostile input would: with its output drained,
//! its input fed, and killed at a deadline, so that a test of a hang fails
//! instead of hanging. Shared by the tests of hostile files and engines.
#![allow(dead_code)]

use std::io::{Read, Write};
use std::process::Child;
use std::time::{Duration, Instant};

/// How a run ended: its exit code (`None`: killed at the deadline) and
/// what it printed.
pub struct Run {
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    /// Exited by itself, unsuccessfully, saying `text` on stderr.
    pub fn failed_with(&self, text: &str) -> bool {
        self.code.is_some_and(|c| c != 0) && self.stderr.contains(text)
    }
}

impl std::fmt::Debug for Run {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let clip = |s: &str| s.chars().take(2000).collect::<String>();
        write!(
            f,
            "exit {:?}\nstdout: {}\nstderr: {}",
            self.code,
            clip(&self.stdout),
            clip(&self.stderr)
        )
    }
}

/// Waits for `child` (spawned with piped stdout and stderr, and piped
/// stdin when `input` is given) until `limit`, feeding it `input`; kills
/// it then.
pub fn finish(mut child: Child, limit: Duration, input: Option<&str>) -> Run {
    let feeder = input.map(|text| {
        let mut stdin = child.stdin.take().expect("stdin piped");
        let text = text.to_string();
        std::thread::spawn(move || {
            stdin.write_all(text.as_bytes()).ok();
        })
    });
    let drain = |mut r: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut v = Vec::new();
            r.read_to_end(&mut v).ok();
            String::from_utf8_lossy(&v).into_owned()
        })
    };
    let out = drain(Box::new(child.stdout.take().expect("stdout piped")));
    let err = drain(Box::new(child.stderr.take().expect("stderr piped")));
    let start = Instant::now();
    let code = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status.code().unwrap_or(-1));
        }
        if start.elapsed() > limit {
            child.kill().ok();
            child.wait().ok();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    if let Some(f) = feeder {
        f.join().ok();
    }
    Run {
        code,
        stdout: out.join().unwrap(),
        stderr: err.join().unwrap(),
    }
}
