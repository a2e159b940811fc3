//! Lines from stdin, read as bytes (a GUI need not send UTF-8) with a cap
//! on their length, on a thread of their own so that `stop` and `quit`
//! get through whatever the engine is doing.

use std::io::{self, BufRead};

/// Longest line kept; longer ones are dropped with an error instead of
/// growing memory without bound.
pub const MAX_LINE: usize = 16 << 20;

pub enum StdinLine {
    Line(String),
    TooLong(usize),
}

/// Reads one line as bytes (stdin need not be UTF-8). `None` at end of input.
pub fn read_line(r: &mut impl BufRead, buf: &mut Vec<u8>) -> Option<StdinLine> {
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

fn finish(buf: &[u8], total: usize) -> StdinLine {
    if total > MAX_LINE {
        StdinLine::TooLong(total)
    } else {
        StdinLine::Line(String::from_utf8_lossy(buf).into_owned())
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
                StdinLine::Line(s) => s,
                StdinLine::TooLong(n) => format!("<{n}>"),
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
