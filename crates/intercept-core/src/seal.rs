//! Sealing a manifest, so that `merge` and `--resume` believe only what a run of this tool wrote.
//!
//! Each check guards against something different, and the docs (`docs/scale-out.md`) say which:
//! - **The bytes as written** ([`unseal`]): a manifest must read back to exactly the text it was written as,
//!   so a field the tool does not know, or white space changed, is refused rather than ignored.
//! - **The digest**, SHA-256 of the contents: catches damage and edits by hand (a truncated copy, a count
//!   typed over). Anyone can compute it again, so it proves nothing against someone who means to forge.
//! - **The key seal** (`mac`), HMAC-SHA256 of the same contents under a secret [`Key`] that the shards of one
//!   job share (`--key-file`, or `INTERCEPT_SIM_KEY`): only a holder of the key can make one, so a manifest
//!   re-sealed without it is refused. Nothing is keyed unless a key is given.
//!
//! What a forger with the key (or of an unkeyed manifest) changes is caught only when it makes the counts
//! implausible against the exact values ([`crate::plausible`]).

use std::io::Read;
use std::path::{Path, PathBuf};

use hmac::{Hmac, KeyInit, Mac};
use serde::Serialize;
use serde::de::DeserializeOwned;
use sha2::{Digest, Sha256};

use crate::text::{clip, shown_path};

/// The environment variable that holds a key's text, when no `--key-file` is given.
pub const KEY_VAR: &str = "INTERCEPT_SIM_KEY";

/// The fewest bytes a key may have: shorter ones can be guessed.
pub const KEY_LEAST: usize = 16;

/// The most bytes a key file may hold.
const KEY_MOST: u64 = 4096;

/// A secret that seals manifests: the bytes of a key file or of [`KEY_VAR`], without a final line break.
#[derive(Clone)]
pub struct Key(Vec<u8>);

impl std::fmt::Debug for Key {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Key(..)")
    }
}

/// Why a key cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum KeyError {
    #[error("--key-file {}: cannot read the key: {source}", shown_path(path))]
    Read { path: PathBuf, source: std::io::Error },
    #[error(
        "{from}: a key must have {KEY_LEAST} to {KEY_MOST} bytes, this one has {bytes}; make one with `head -c 32 /dev/urandom | base64 > job.key`"
    )]
    Length { from: String, bytes: usize },
}

impl Key {
    /// The key in `file`, or else in [`KEY_VAR`]; `None` when neither is given.
    pub fn given(file: Option<&Path>) -> Result<Option<Key>, KeyError> {
        if let Some(path) = file {
            return Key::from_file(path).map(Some);
        }
        match std::env::var_os(KEY_VAR) {
            Some(text) => Key::new(text.into_encoded_bytes(), KEY_VAR.to_owned()).map(Some),
            None => Ok(None),
        }
    }

    /// The key held in `path`.
    pub fn from_file(path: &Path) -> Result<Key, KeyError> {
        let read = |source| KeyError::Read { path: path.to_owned(), source };
        let mut bytes = Vec::new();
        let file = std::fs::File::open(path).map_err(read)?;
        file.take(KEY_MOST + 1).read_to_end(&mut bytes).map_err(read)?;
        Key::new(bytes, format!("--key-file {}", shown_path(path)))
    }

    fn new(mut bytes: Vec<u8>, from: String) -> Result<Key, KeyError> {
        while bytes.last().is_some_and(|b| *b == b'\n' || *b == b'\r') {
            bytes.pop();
        }
        if !(KEY_LEAST..=KEY_MOST as usize).contains(&bytes.len()) {
            return Err(KeyError::Length { from, bytes: bytes.len() });
        }
        Ok(Key(bytes))
    }

    fn mac(&self) -> Hmac<Sha256> {
        Hmac::<Sha256>::new_from_slice(&self.0).expect("HMAC takes a key of any length")
    }
}

/// A manifest as runs and sweeps write it: the tool and version that wrote it, its digest and key seal, and
/// its contents without them.
pub(crate) trait Sealed: Serialize + DeserializeOwned {
    /// The tool and version that wrote it.
    fn writer(&self) -> (&str, &str);
    /// The digest it carries.
    fn digest(&self) -> &str;
    /// The key seal it carries, if it was written with a key.
    fn mac(&self) -> Option<&str>;
    /// A copy with the digest and the key seal left empty: what both are computed from.
    fn unsealed(&self) -> Self;
}

/// Implements [`Sealed`] for a manifest record with `tool`, `version`, `digest` and `mac` fields, a run's
/// and a sweep's alike, and gives it `digest_now` and `seal_with`.
macro_rules! sealed_record {
    ($record:ident) => {
        impl $record {
            /// The SHA-256, in hexadecimal, of the manifest as compact JSON with its digest and key seal left
            /// empty: what its `digest` must hold.
            pub fn digest_now(&self) -> String {
                $crate::seal::digest(self)
            }

            /// Adds the key seal of the record's contents under `key`, for a job whose shards share it.
            pub fn seal_with(&mut self, key: &$crate::seal::Key) {
                self.mac = Some($crate::seal::mac(self, key));
            }
        }

        impl $crate::seal::Sealed for $record {
            fn writer(&self) -> (&str, &str) {
                (&self.tool, &self.version)
            }

            fn digest(&self) -> &str {
                &self.digest
            }

            fn mac(&self) -> Option<&str> {
                self.mac.as_deref()
            }

            fn unsealed(&self) -> Self {
                $record { digest: String::new(), mac: None, ..self.clone() }
            }
        }
    };
}
pub(crate) use sealed_record;

/// The compact JSON both seals are computed from.
fn contents(record: &impl Sealed) -> Vec<u8> {
    serde_json::to_vec(&record.unsealed()).expect("a manifest serialises")
}

/// The SHA-256, in hexadecimal, of `record`'s contents: what its `digest` must hold.
pub(crate) fn digest(record: &impl Sealed) -> String {
    hex(&Sha256::digest(contents(record)))
}

/// The HMAC-SHA256 under `key`, in hexadecimal, of `record`'s contents: what its `mac` must hold.
pub(crate) fn mac(record: &impl Sealed, key: &Key) -> String {
    let mut mac = key.mac();
    mac.update(&contents(record));
    hex(&mac.finalize().into_bytes())
}

pub(crate) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The text a manifest is written as: pretty JSON and a line break.
pub fn text(record: &impl Serialize) -> String {
    serde_json::to_string_pretty(record).expect("a record serialises") + "\n"
}

/// Why a manifest's text was not believed: it is not a manifest at all, or it is one that is refused.
#[derive(Debug)]
pub(crate) enum Unsealed {
    Format(String),
    Refused(String),
}

/// The manifest `text`, refusing one written by another version (its numbers would
/// differ), not as the tool writes it, edited since the `what` (run, sweep) wrote it (its digest), or sealed
/// otherwise than with `key`.
pub(crate) fn unseal<T: Sealed>(text: &str, what: &str, key: Option<&Key>) -> Result<T, Unsealed> {
    let record: T = serde_json::from_str(text).map_err(|e| Unsealed::Format(clip(&e.to_string(), 200)))?;
    let refused = Unsealed::Refused;
    let version = env!("CARGO_PKG_VERSION");
    let (tool, theirs) = record.writer();
    if tool != "intercept-sim" || theirs != version {
        let (tool, theirs) = (clip(tool, 40), clip(theirs, 40));
        return Err(refused(format!("written by {tool} {theirs}, not intercept-sim {version}")));
    }
    if record.digest() != digest(&record) {
        let message =
            format!("manifest.json was changed after the {what} wrote it (its digest does not match its contents)");
        return Err(refused(message));
    }
    if self::text(&record) != text {
        let message = format!(
            "manifest.json is not as the {what} wrote it: a field it does not know, or its layout or white space, \
             was changed"
        );
        return Err(refused(message));
    }
    check_key(&record, key).map_err(|m| refused(m.to_owned()))?;
    Ok(record)
}

/// Refuses a key seal that does not match `key`, and a manifest sealed with a key when none is given.
fn check_key(record: &impl Sealed, key: Option<&Key>) -> Result<(), &'static str> {
    match (key, record.mac()) {
        (None, None) => Ok(()),
        (None, Some(_)) => Err("manifest.json is sealed with a key: give the job's key with --key-file FILE or \
                                INTERCEPT_SIM_KEY"),
        (Some(_), None) => Err("manifest.json has no key seal, but a key was given: it was written without the \
                                key, or sealed again by someone without it"),
        (Some(key), Some(seal)) => {
            let mut mac = key.mac();
            mac.update(&contents(record));
            let matches = decode_hex(seal).is_some_and(|bytes| mac.verify_slice(&bytes).is_ok());
            match matches {
                true => Ok(()),
                false => Err("manifest.json's key seal does not match: it was changed after it was written, or \
                              sealed with another key"),
            }
        }
    }
}

fn decode_hex(text: &str) -> Option<Vec<u8>> {
    let digits = text.as_bytes();
    if !digits.len().is_multiple_of(2) {
        return None;
    }
    let nibble = |c: u8| (c as char).to_digit(16).map(|d| d as u8);
    digits.chunks(2).map(|pair| Some(nibble(pair[0])? << 4 | nibble(pair[1])?)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_read_without_their_line_break_and_refused_when_short() {
        assert_eq!(Key::new(b"0123456789abcdef\n".to_vec(), "test".into()).unwrap().0, b"0123456789abcdef");
        let short = Key::new(b"secret\n".to_vec(), "test".into()).unwrap_err().to_string();
        assert!(short.starts_with("test: a key must have 16 to 4096 bytes, this one has 6"), "{short}");
        assert_eq!(format!("{:?}", Key(b"0123456789abcdef".to_vec())), "Key(..)");
    }

    #[test]
    fn hex_reads_back() {
        assert_eq!(decode_hex("00ff7a"), Some(vec![0, 255, 0x7a]));
        assert_eq!(decode_hex("0g"), None);
        assert_eq!(decode_hex("abc"), None);
    }
}
