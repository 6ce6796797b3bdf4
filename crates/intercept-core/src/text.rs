//! Text from outside the tool: read with a cap, and quoted back in messages at a readable length.
//!
//! Configs, manifests and a folder's own small files are read through [`read_capped`], which stops at a
//! size no real file of the kind reaches and refuses what is not UTF-8 ([`ReadError`]), so that no input
//! can make the tool read without end. Values quoted back in an error are cut by [`clip`], and a whole
//! message is kept to one readable line by [`one_line`], and a path quoted by [`shown_path`]. Tables printed as CSV are written by [`csv_line`].

use std::io::Read;

/// Why a capped read gave no text.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    #[error("{0}")]
    Io(#[from] std::io::Error),
    #[error("larger than {} MiB", .most >> 20)]
    TooLarge { most: u64 },
    #[error("not UTF-8 text (byte {at} is not)")]
    NotText { at: usize },
}

/// The text `reader` holds, refusing more than `most` bytes, or bytes that are not UTF-8.
pub fn read_capped(reader: impl Read, most: u64) -> Result<String, ReadError> {
    let mut bytes = Vec::new();
    reader.take(most + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > most {
        return Err(ReadError::TooLarge { most });
    }
    String::from_utf8(bytes).map_err(|e| ReadError::NotText { at: e.utf8_error().valid_up_to() + 1 })
}

/// `text` on one line, cut to `most` characters with a mark where it was cut: how a value from a file or
/// the command line is quoted in a message.
pub fn clip(text: &str, most: usize) -> String {
    let spaced: String = text.chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
    match spaced.char_indices().nth(most) {
        Some((at, _)) => format!("{}... ({} characters in all)", &spaced[..at], spaced.chars().count()),
        None => spaced,
    }
}

/// A message on one line and of a readable length: control characters become spaces, a run of more than
/// 80 characters without a space (a value pasted from the file) keeps its first 60, and a message still
/// longer than 600 characters keeps its start and its end, which says what is allowed.
pub fn one_line(message: &str) -> String {
    let spaced: String = message.chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
    let words: Vec<String> = spaced.split(' ').map(short_word).collect();
    let chars: Vec<char> = words.join(" ").chars().collect();
    if chars.len() <= 600 {
        return chars.into_iter().collect();
    }
    let head: String = chars[..300].iter().collect();
    let tail: String = chars[chars.len() - 250..].iter().collect();
    format!("{head} ... {tail}")
}

fn short_word(word: &str) -> String {
    if word.chars().count() <= 80 { word.to_owned() } else { clip(word, 60) }
}

/// A path as a message shows it: control characters (a line break, an escape that would drive the terminal)
/// written as escapes, so a hostile file name cannot change what the terminal shows.
pub fn shown_path(path: &std::path::Path) -> String {
    let text = path.display().to_string();
    text.chars().map(|c| if c.is_control() { c.escape_default().to_string() } else { c.to_string() }).collect()
}

/// An input or output error in plain words: what a full disk, a quota, a missing permission or a read-only
/// file system means, without the operating system's error number.
pub fn plain_io(e: &std::io::Error) -> String {
    use std::io::ErrorKind;
    match e.kind() {
        ErrorKind::StorageFull => "the disk is full (no space left on the device)".to_owned(),
        ErrorKind::QuotaExceeded => "the disk quota is used up".to_owned(),
        ErrorKind::PermissionDenied => "permission denied".to_owned(),
        ErrorKind::ReadOnlyFilesystem => "the file system is read-only".to_owned(),
        _ => plain_cause(&e.to_string()),
    }
}

/// A library's error text in plain words: the same operating-system errors as [`plain_io`], found in the
/// text a chart or Parquet writer wraps them in, without the wrappers' own prefixes or the error number.
pub fn plain_cause(text: &str) -> String {
    let known = [
        ("No space left on device", "the disk is full (no space left on the device)"),
        ("Disk quota exceeded", "the disk quota is used up"),
        ("Permission denied", "permission denied"),
        ("Read-only file system", "the file system is read-only"),
    ];
    if let Some((_, plain)) = known.iter().find(|(os, _)| text.contains(os)) {
        return (*plain).to_owned();
    }
    let mut rest = text;
    for wrapper in ["backend error: ", "Drawing backend error: "] {
        rest = rest.strip_prefix(wrapper).unwrap_or(rest);
    }
    match rest.rfind(" (os error ") {
        Some(at) if rest.ends_with(')') => rest[..at].to_owned(),
        _ => rest.to_owned(),
    }
}

/// A size in bytes, in decimal units: `356 MB`, `1.7 TB`.
pub fn bytes(n: u128) -> String {
    let units = ["bytes", "kB", "MB", "GB", "TB", "PB", "EB", "ZB"];
    let mut size = n as f64;
    let mut unit = 0;
    while size >= 1000.0 && unit + 1 < units.len() {
        size /= 1000.0;
        unit += 1;
    }
    match unit {
        0 => format!("{n} bytes"),
        _ if size < 10.0 => format!("{size:.1} {}", units[unit]),
        _ => format!("{size:.0} {}", units[unit]),
    }
}

/// One CSV line (RFC 4180): cells holding a comma, a quote or a line break are quoted, quotes doubled.
pub fn csv_line<S: AsRef<str>>(cells: &[S]) -> String {
    let cell = |c: &S| {
        let c = c.as_ref();
        match c.contains([',', '"', '\n', '\r']) {
            true => format!("\"{}\"", c.replace('"', "\"\"")),
            false => c.to_owned(),
        }
    };
    cells.iter().map(cell).collect::<Vec<_>>().join(",") + "\n"
}

/// Declares a refusal: an error type of one sentence that says why something cannot be used and what is
/// allowed, named for the seam it crosses (a setting, counts read back, a position), so a caller knows what
/// failed by its type and the binary prints it as it is. Built from a `String` or a `&str` by `?` and `into`.
#[macro_export]
macro_rules! refusal {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub struct $name(pub String);

        impl ::std::fmt::Display for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(&self.0)
            }
        }

        impl ::std::error::Error for $name {}

        impl From<String> for $name {
            fn from(message: String) -> Self {
                $name(message)
            }
        }

        impl From<&str> for $name {
            fn from(message: &str) -> Self {
                $name(message.to_owned())
            }
        }
    };
}

/// `text` with its first letter a capital.
pub fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |first| first.to_uppercase().chain(chars).collect())
}
