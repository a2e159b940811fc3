//! Text read from outside, quoted back in messages. A GUI log or terminal
//! must never receive raw control bytes (a NUL cuts a C string, an escape
//! sequence repaints the terminal, a carriage return fakes a new line), and
//! a megabyte of garbage must not be echoed whole.

/// Longest piece of outside input quoted back in a message, in characters.
const QUOTE: usize = 40;

/// Control characters written as escapes (`\0`, `\u{1b}`, `\r`); printable
/// text, non-ASCII letters included, is kept as it is.
pub fn escape(s: &str) -> String {
    if !s.chars().any(char::is_control) {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '\0' => out.push_str("\\0"),
            c if c.is_control() => out.extend(c.escape_default()),
            c => out.push(c),
        }
    }
    out
}

/// At most `QUOTE` characters of `s`, escaped, with `...` where cut.
pub fn clip(s: &str) -> String {
    let mut c: String = s.chars().take(QUOTE).collect();
    if s.chars().nth(QUOTE).is_some() {
        c.push_str("...");
    }
    escape(&c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_bytes_are_escaped() {
        assert_eq!(escape("a\0b"), "a\\0b");
        assert_eq!(escape("\u{1b}[2J"), "\\u{1b}[2J");
        assert_eq!(escape("x\ry\tz"), "x\\ry\\tz");
        assert_eq!(escape("장기 e2e3"), "장기 e2e3");
    }

    #[test]
    fn long_input_is_cut() {
        let long = "x".repeat(100);
        assert_eq!(clip(&long), format!("{}...", "x".repeat(QUOTE)));
        assert_eq!(clip("\0"), "\\0");
        assert_eq!(clip(&"y".repeat(QUOTE)), "y".repeat(QUOTE));
    }
}
