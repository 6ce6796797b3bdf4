//! The files a config may name besides itself (a map file a naval scenario is fought on), and where each
//! surface lets them be read from ([`Files`]): a config loaded from a file from its own folder
//! ([`Beside`]), and text with no file behind it (the workbench's, a manifest's) not at all ([`NoFiles`]). A file is read once, as the config loads; its content is then held in the
//! config as if written there, so a manifest records it whole and a resumed or swept run never reads it
//! again.

use std::path::{Path, PathBuf};

use super::{ConfigError, MOST_BYTES};
use crate::text::{ReadError, read_capped};

/// Reads the files a config names.
pub trait Files: Sync {
    /// The path and text of the file `name` (as the config writes it), or why it cannot be read: in a
    /// sentence naming it.
    fn read(&self, name: &str) -> Result<(PathBuf, String), String>;
}

/// No file may be read: config text with no file behind it, or a config resolved from a manifest.
pub struct NoFiles;

impl Files for NoFiles {
    fn read(&self, name: &str) -> Result<(PathBuf, String), String> {
        let name = crate::text::clip(name, 60);
        Err(format!(
            "{name:?} cannot be read here: only a config loaded from a file reads other files; write its content in \
             the config"
        ))
    }
}

/// Files beside the config: a relative name is taken from the config's folder.
pub struct Beside(pub PathBuf);

impl Beside {
    /// The folder of the config at `file`.
    pub fn config(file: &Path) -> Beside {
        Beside(file.parent().map(Path::to_owned).unwrap_or_default())
    }
}

impl Files for Beside {
    fn read(&self, name: &str) -> Result<(PathBuf, String), String> {
        let path = self.0.join(name);
        read_text(&path).map(|text| (path, text))
    }
}

fn read_text(path: &Path) -> Result<String, String> {
    let shown = crate::text::shown_path(path);
    let file = std::fs::File::open(path).map_err(|e| format!("cannot read {shown}: {}", crate::text::plain_io(&e)))?;
    read_capped(file, MOST_BYTES).map_err(|e| match e {
        ReadError::Io(e) => format!("cannot read {shown}: {}", crate::text::plain_io(&e)),
        e => format!("{shown} is {e}"),
    })
}

/// An error inside an included file, placed at its line where the key is found.
pub fn in_file(file: &Path, text: &str, error: super::Invalid) -> ConfigError {
    super::locate::invalid(text, file, error)
}

/// Why a file a config names cannot be used: a key of the config (the file cannot be read, or is named
/// where content is also written), or the file itself (not TOML, a bad value in it), placed at its line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Included {
    At(super::Invalid),
    File(ConfigError),
}

impl From<super::Invalid> for Included {
    fn from(e: super::Invalid) -> Included {
        Included::At(e)
    }
}

/// The included file's text typed as `T`, a TOML error placed at its line in that file.
pub fn parse_included<T: serde::de::DeserializeOwned>(file: &Path, text: &str) -> Result<T, Included> {
    toml::from_str(text).map_err(|e| Included::File(super::locate::parse_error(text, file, &e)))
}
