//! The files a config may name besides itself (the map file a scenario is fought on), and where each
//! surface lets them be read from ([`Files`]): the command line and Python from the config's own folder
//! ([`Beside`]), the workbench only inside the folder it serves ([`Inside`]), and text with no file behind
//! it (a manifest's, a starter's) not at all ([`NoFiles`]). A file is read once, as the config loads; its content is then held in the
//! config as if written there, so a manifest records it whole and a resumed or swept run never reads it
//! again.

use std::path::{Component, Path, PathBuf};

use super::{ConfigError, MOST_BYTES};
use crate::text::{ReadError, read_capped};

crate::refusal! {
    /// Why a file a config names cannot be read: a sentence naming it as the config writes it.
    Unreadable
}

/// Reads the files a config names.
pub trait Files: Sync {
    /// The path and text of the file `name` (as the config writes it), or why it cannot be read.
    fn read(&self, name: &str) -> Result<(PathBuf, String), Unreadable>;
}

/// No file may be read: config text with no file behind it, or a config resolved from a manifest.
pub struct NoFiles;

impl Files for NoFiles {
    fn read(&self, name: &str) -> Result<(PathBuf, String), Unreadable> {
        let name = crate::text::clip(name, 60);
        Err(Unreadable(format!(
            "{name:?} cannot be read here: only a config loaded from a file reads other files; write its content in \
             the config"
        )))
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
    fn read(&self, name: &str) -> Result<(PathBuf, String), Unreadable> {
        let path = self.0.join(name);
        read_text(&path, name).map(|text| (path, text))
    }
}

/// Files inside one folder only (a server's): a relative name from the config's folder inside it, with no
/// way out (`..` above the folder, an absolute path, a link that leads out).
pub struct Inside {
    pub root: PathBuf,
    /// The config's folder, relative to `root`.
    pub folder: PathBuf,
}

impl Files for Inside {
    fn read(&self, name: &str) -> Result<(PathBuf, String), Unreadable> {
        let shown = crate::text::clip(name, 60);
        let out = || Unreadable(format!("{shown:?} is outside the folder the workbench serves; name a file inside it"));
        let mut inside = PathBuf::new();
        for part in self.folder.join(name).components() {
            match part {
                Component::Normal(p) => inside.push(p),
                Component::CurDir => {}
                Component::ParentDir if inside.pop() => {}
                _ => return Err(out()),
            }
        }
        let path = self.root.join(&inside);
        let real = path.canonicalize().map_err(|e| cannot_read(name, &e))?;
        if !self.root.canonicalize().is_ok_and(|root| real.starts_with(root)) {
            return Err(out());
        }
        read_text(&real, name).map(|text| (inside, text))
    }
}

/// The text of the file at `path`, which the config calls `name`: errors name it as the config does, so
/// every surface says the same.
fn read_text(path: &Path, name: &str) -> Result<String, Unreadable> {
    let file = std::fs::File::open(path).map_err(|e| cannot_read(name, &e))?;
    read_capped(file, MOST_BYTES).map_err(|e| match e {
        ReadError::Io(e) => cannot_read(name, &e),
        e => Unreadable(format!("{:?} is {e}", crate::text::clip(name, 60))),
    })
}

fn cannot_read(name: &str, e: &std::io::Error) -> Unreadable {
    Unreadable(format!("cannot read {:?}: {}", crate::text::clip(name, 60), crate::text::plain_io(e)))
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
