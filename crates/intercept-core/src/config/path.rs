//! [`KeyPath`] names a key inside a config (`game.unit[1].order`); [`Invalid`] is a resolve error
//! at such a path, before the loader turns it into a [`ConfigError`](super::ConfigError) with a line.

use std::fmt;

/// One step into a TOML document: a table key or an array index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Seg {
    Key(String),
    Index(usize),
}

/// A path from the document root to a key.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KeyPath(pub Vec<Seg>);

impl KeyPath {
    /// The document root.
    pub fn root() -> KeyPath {
        KeyPath(Vec::new())
    }

    /// This path extended by a table key.
    pub fn key(mut self, k: &str) -> KeyPath {
        self.0.push(Seg::Key(k.to_owned()));
        self
    }

    /// This path extended by an array index.
    pub fn index(mut self, i: usize) -> KeyPath {
        self.0.push(Seg::Index(i));
        self
    }
}

impl fmt::Display for KeyPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, seg) in self.0.iter().enumerate() {
            match seg {
                Seg::Key(k) if i == 0 => write!(f, "{k}")?,
                Seg::Key(k) => write!(f, ".{k}")?,
                Seg::Index(n) => write!(f, "[{n}]")?,
            }
        }
        Ok(())
    }
}

/// A value that parsed but is not allowed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Invalid {
    pub path: KeyPath,
    pub message: String,
}

impl Invalid {
    pub fn new(path: KeyPath, message: String) -> Invalid {
        Invalid { path, message }
    }
}

/// Checks that `value` lies in `lo..=hi`, naming the key and the allowed range otherwise.
pub fn in_range(value: i64, lo: i64, hi: i64, path: impl FnOnce() -> KeyPath) -> Result<(), Invalid> {
    if (lo..=hi).contains(&value) {
        return Ok(());
    }
    Err(Invalid::new(path(), format!("{value} is out of range; allowed: {lo} to {hi}")))
}

/// Checks that `p` is a probability, naming the key otherwise.
pub fn probability(p: f64, path: impl FnOnce() -> KeyPath) -> Result<(), Invalid> {
    if (0.0..=1.0).contains(&p) {
        return Ok(());
    }
    Err(Invalid::new(path(), format!("{p} is not a probability; allowed: 0 to 1")))
}
