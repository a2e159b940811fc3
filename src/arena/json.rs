//! Just enough JSON for the match result: a writer for the report and a
//! small reader so that `--resume` can take the games back from it. A
//! serde dependency would outweigh the two hundred lines this needs.

use std::fmt::Write as _;

/// Quotes and escapes a string.
pub fn string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A number, with `null` for NaN and infinities (JSON has neither).
pub fn number(x: f64) -> String {
    if x.is_finite() {
        let s = format!("{x:.6}");
        let s = s.trim_end_matches('0').trim_end_matches('.');
        if s.is_empty() || s == "-" {
            "0".into()
        } else {
            s.to_string()
        }
    } else {
        "null".into()
    }
}

/// An object written field by field.
#[derive(Default)]
pub struct Obj {
    fields: Vec<(String, String)>,
}

impl Obj {
    pub fn new() -> Obj {
        Obj::default()
    }

    /// Adds a field whose value is already JSON text.
    pub fn raw(mut self, k: &str, v: impl Into<String>) -> Obj {
        self.fields.push((k.to_string(), v.into()));
        self
    }

    pub fn str(self, k: &str, v: &str) -> Obj {
        self.raw(k, string(v))
    }

    pub fn num(self, k: &str, v: f64) -> Obj {
        self.raw(k, number(v))
    }

    pub fn int(self, k: &str, v: u64) -> Obj {
        self.raw(k, v.to_string())
    }

    pub fn render(&self, indent: usize) -> String {
        if self.fields.is_empty() {
            return "{}".into();
        }
        let pad = " ".repeat(indent + 2);
        let body: Vec<String> = self
            .fields
            .iter()
            .map(|(k, v)| format!("{pad}{}: {v}", string(k)))
            .collect();
        format!("{{\n{}\n{}}}", body.join(",\n"), " ".repeat(indent))
    }
}

/// A JSON array of already rendered values, one per line.
pub fn array(items: &[String], indent: usize) -> String {
    if items.is_empty() {
        return "[]".into();
    }
    let pad = " ".repeat(indent + 2);
    let body: Vec<String> = items.iter().map(|i| format!("{pad}{i}")).collect();
    format!("[\n{}\n{}]", body.join(",\n"), " ".repeat(indent))
}

/// A parsed JSON value.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Null,
    Bool(bool),
    Num(f64),
    Str(String),
    Arr(Vec<Value>),
    Obj(Vec<(String, Value)>),
}

impl Value {
    pub fn get(&self, key: &str) -> Option<&Value> {
        match self {
            Value::Obj(f) => f.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }

    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Value::Num(x) => Some(*x),
            _ => None,
        }
    }

    pub fn as_arr(&self) -> Option<&[Value]> {
        match self {
            Value::Arr(a) => Some(a),
            _ => None,
        }
    }
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
    depth: usize,
}

impl Parser<'_> {
    fn ws(&mut self) {
        while self.i < self.s.len() && self.s[self.i].is_ascii_whitespace() {
            self.i += 1;
        }
    }

    fn err<T>(&self, what: &str) -> Result<T, String> {
        Err(format!("JSON: {what} at byte {}", self.i))
    }

    fn eat(&mut self, lit: &str) -> bool {
        if self.s[self.i..].starts_with(lit.as_bytes()) {
            self.i += lit.len();
            true
        } else {
            false
        }
    }

    fn value(&mut self) -> Result<Value, String> {
        self.ws();
        // Deep nesting would overflow the stack; our files are shallow.
        if self.depth > 64 {
            return self.err("nested too deeply");
        }
        let Some(&c) = self.s.get(self.i) else {
            return self.err("unexpected end");
        };
        match c {
            b'{' => {
                self.i += 1;
                self.depth += 1;
                let mut fields = Vec::new();
                self.ws();
                if self.eat("}") {
                    self.depth -= 1;
                    return Ok(Value::Obj(fields));
                }
                loop {
                    self.ws();
                    let Value::Str(k) = self.value()? else {
                        return self.err("expected a key");
                    };
                    self.ws();
                    if !self.eat(":") {
                        return self.err("expected ':'");
                    }
                    let v = self.value()?;
                    fields.push((k, v));
                    self.ws();
                    if self.eat(",") {
                        continue;
                    }
                    if self.eat("}") {
                        self.depth -= 1;
                        return Ok(Value::Obj(fields));
                    }
                    return self.err("expected ',' or '}'");
                }
            }
            b'[' => {
                self.i += 1;
                self.depth += 1;
                let mut items = Vec::new();
                self.ws();
                if self.eat("]") {
                    self.depth -= 1;
                    return Ok(Value::Arr(items));
                }
                loop {
                    items.push(self.value()?);
                    self.ws();
                    if self.eat(",") {
                        continue;
                    }
                    if self.eat("]") {
                        self.depth -= 1;
                        return Ok(Value::Arr(items));
                    }
                    return self.err("expected ',' or ']'");
                }
            }
            b'"' => {
                self.i += 1;
                let mut out = Vec::new();
                loop {
                    let Some(&c) = self.s.get(self.i) else {
                        return self.err("unterminated string");
                    };
                    self.i += 1;
                    match c {
                        b'"' => break,
                        b'\\' => {
                            let Some(&e) = self.s.get(self.i) else {
                                return self.err("bad escape");
                            };
                            self.i += 1;
                            match e {
                                b'n' => out.push(b'\n'),
                                b't' => out.push(b'\t'),
                                b'r' => out.push(b'\r'),
                                b'b' => out.push(8),
                                b'f' => out.push(12),
                                b'u' => {
                                    let hex =
                                        self.s.get(self.i..self.i + 4).ok_or("JSON: bad \\u")?;
                                    let code =
                                        u32::from_str_radix(&String::from_utf8_lossy(hex), 16)
                                            .map_err(|_| "JSON: bad \\u".to_string())?;
                                    self.i += 4;
                                    let ch = char::from_u32(code).unwrap_or('\u{fffd}');
                                    let mut b = [0; 4];
                                    out.extend_from_slice(ch.encode_utf8(&mut b).as_bytes());
                                }
                                other => out.push(other),
                            }
                        }
                        c => out.push(c),
                    }
                }
                Ok(Value::Str(String::from_utf8_lossy(&out).into_owned()))
            }
            b't' if self.eat("true") => Ok(Value::Bool(true)),
            b'f' if self.eat("false") => Ok(Value::Bool(false)),
            b'n' if self.eat("null") => Ok(Value::Null),
            _ => {
                let start = self.i;
                while self.i < self.s.len()
                    && matches!(
                        self.s[self.i],
                        b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9'
                    )
                {
                    self.i += 1;
                }
                let t = String::from_utf8_lossy(&self.s[start..self.i]);
                match t.parse::<f64>() {
                    Ok(x) => Ok(Value::Num(x)),
                    Err(_) => self.err("unexpected character"),
                }
            }
        }
    }
}

pub fn parse(text: &str) -> Result<Value, String> {
    let mut p = Parser {
        s: text.as_bytes(),
        i: 0,
        depth: 0,
    };
    let v = p.value()?;
    p.ws();
    if p.i != p.s.len() {
        return p.err("trailing text");
    }
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let o = Obj::new()
            .str("name", "a \"b\"\n\u{1}é")
            .num("x", 1.5)
            .num("nan", f64::NAN)
            .int("n", 3)
            .raw("list", array(&["1".into(), "true".into()], 2));
        let v = parse(&o.render(0)).unwrap();
        assert_eq!(v.get("name").unwrap().as_str(), Some("a \"b\"\n\u{1}é"));
        assert_eq!(v.get("x").unwrap().as_f64(), Some(1.5));
        assert_eq!(v.get("nan"), Some(&Value::Null));
        assert_eq!(v.get("list").unwrap().as_arr().unwrap().len(), 2);
        for bad in ["{", "[1,]", "{\"a\" 1}", "\"x", "1 2", &"[".repeat(200)] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }
}
