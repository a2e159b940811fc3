//! Two `janggun datagen` runs on one output file: the second is turned
//! away with a clear error while the first writes, and the first's file is
//! untouched by it; once the first has ended (killed, even), the file can be
//! resumed again.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

fn bin() -> PathBuf {
    std::env::var_os("JANGGUN_TEST_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_janggun")))
}

fn datagen(out: &Path) -> Command {
    let mut c = Command::new(bin());
    c.args(["datagen", "--threads", "1", "--seed", "5", "--nodes", "300"])
        .args([
            "--verify-nodes",
            "300",
            "--resume",
            "--positions",
            "1000000",
        ])
        .arg("--out")
        .arg(out)
        .stdout(Stdio::null());
    c
}

/// Kills the child however the test ends.
struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn a_second_datagen_on_one_file_is_turned_away() {
    let dir = std::env::temp_dir().join(format!("janggun-lock-{}", std::process::id()));
    std::fs::remove_dir_all(&dir).ok();
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("shard.bin");
    let mut first = Running(datagen(&out).stderr(Stdio::null()).spawn().unwrap());
    // Until the first has written a game (the file holds more than its
    // header), it surely holds the file.
    let deadline = Instant::now() + Duration::from_secs(60);
    while std::fs::metadata(&out).map_or(0, |m| m.len()) < 100 {
        assert!(
            first.0.try_wait().unwrap().is_none(),
            "the first run ended early"
        );
        assert!(
            Instant::now() < deadline,
            "the first run wrote nothing in 60 s"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    // Turned away at once; a build without the lock would write on (its
    // cap is far away), so it is given ten seconds.
    let mut second = Running(datagen(&out).stderr(Stdio::piped()).spawn().unwrap());
    let deadline = Instant::now() + Duration::from_secs(10);
    let status = loop {
        if let Some(s) = second.0.try_wait().unwrap() {
            break s;
        }
        assert!(Instant::now() < deadline, "the second run was let in");
        std::thread::sleep(Duration::from_millis(50));
    };
    let mut err = String::new();
    use std::io::Read;
    second
        .0
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    assert!(!status.success(), "the second run succeeded: {err}");
    assert!(err.contains("another process is writing it"), "{err}");
    assert!(
        first.0.try_wait().unwrap().is_none(),
        "the first run was disturbed"
    );

    // Killed, the first lets go: a resumed run takes the file up again.
    drop(first);
    let mut again = Running(datagen(&out).stderr(Stdio::null()).spawn().unwrap());
    std::thread::sleep(Duration::from_millis(500));
    assert!(
        again.0.try_wait().unwrap().is_none(),
        "the file stayed locked after its writer died"
    );
    drop(again);
    std::fs::remove_dir_all(&dir).ok();
}
