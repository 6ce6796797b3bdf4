//! Output folders: one writer at a time, every output staged, and a commit that puts a whole run in place.
//!
//! A [`Folder`] is what `run`, `merge`, `sweep` and `sensitivity` write into. [`Folder::open`] makes every
//! check that can be made before any work: it creates the folder if needed, locks it against other
//! writers ([`Lock`]; a second writer gets [`FolderError::Busy`], naming the process that holds it), clears
//! what a killed writer left, and creates a private staging folder (`.staging-<pid>-<n>`, created
//! exclusively, so no planted link or other process can share it). Every output is written there, never
//! under a name in the folder itself.
//!
//! [`Folder::commit`] then swaps the run in, driven by a [`Journal`] written first: it removes the earlier
//! run's index ([`INDEX`], the seal of a complete run), renames the new files in, removes the files of the
//! earlier run the new one does not write, and renames the new index in last. A failure before the commit
//! leaves the earlier run untouched, and dropping the `Folder` removes the staging folder (and the folder
//! itself if this writer created it and nothing else is there). A kill during the commit's renames leaves
//! the journal, and the next writer to open the folder finishes that commit before anything else. Files
//! the tool did not write are never touched.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};

use intercept_core::text::{clip, plain_io, read_capped, shown_path};

/// The lock file held while a writer works in the folder.
pub const LOCK: &str = ".intercept-sim.lock";
/// The list of files the last complete run wrote: present only when the folder holds one whole run.
pub const INDEX: &str = ".intercept-sim-files";
/// The prefix of a writer's private staging folder.
const STAGING: &str = ".staging-";
/// The journal of a commit in progress, inside its staging folder.
const JOURNAL: &str = ".commit";
/// The temporary names of earlier versions, cleared when found.
const LEGACY_TEMP: &str = ".partial-";
/// The most bytes read back from a lock file, an index or a journal.
const MOST_READ: u64 = 1 << 20;

/// The staging folders of this process, for [`abandon`]; held while a commit renames files.
static ACTIVE: Mutex<Vec<Staged>> = Mutex::new(Vec::new());

/// A staging folder in use, and whether its output folder was created for this run.
#[derive(Clone, Debug, PartialEq)]
struct Staged {
    staging: PathBuf,
    created: bool,
}

/// Why a folder cannot be written.
#[derive(Debug, thiserror::Error)]
pub enum FolderError {
    #[error(
        "{}: another run is writing this folder ({holder}); wait for it to finish, or give another --out",
        shown_path(dir)
    )]
    Busy { dir: PathBuf, holder: String },
    #[error("{}: cannot write the output folder: {message}", shown_path(dir))]
    Unwritable { dir: PathBuf, message: String },
    #[error("{}: cannot put the run in place: {}", shown_path(path), plain_io(source))]
    Commit { path: PathBuf, source: io::Error },
}

impl FolderError {
    /// Whether the error was found before any work (bad input), rather than while finishing it.
    pub fn before_work(&self) -> bool {
        !matches!(self, FolderError::Commit { .. })
    }
}

/// An output folder, locked, with the staging folder its outputs are written to.
pub struct Folder {
    dir: PathBuf,
    staging: PathBuf,
    lock: Option<Lock>,
    /// Whether opening it created the folder, which is then removed again if nothing is committed.
    created: bool,
    /// Whether the commit was decided (its journal written): from then on the staging folder is the
    /// commit's to finish, not the drop's to remove.
    committed: bool,
}

impl Folder {
    /// Creates `dir` if needed, locks it, finishes or clears what a killed writer left, and stages.
    pub fn open(dir: &Path) -> Result<Folder, FolderError> {
        let created = create(dir)?;
        let mut folder = Folder { dir: dir.to_owned(), staging: PathBuf::new(), lock: None, created, committed: false };
        folder.lock = Some(Lock::take(dir)?);
        recover(dir).map_err(|e| unwritable(dir, &e))?;
        folder.staging = stage(dir, created)?;
        Ok(folder)
    }

    /// Where the outputs are written until [`Folder::commit`].
    pub fn staging(&self) -> &Path {
        &self.staging
    }

    /// Puts every file written to the staging folder in place, replacing the earlier run's files; returns
    /// the paths of the new files. Once the journal is written the commit is decided: if a rename then fails,
    /// the staging folder stays with its journal, and the next writer to open the folder finishes it.
    pub fn commit(mut self) -> Result<Vec<PathBuf>, FolderError> {
        let new = file_names(&self.staging).map_err(|e| self.commit_error(e))?;
        let journal = Journal { new, old: earlier(&self.dir) };
        let mut active = ACTIVE.lock().unwrap_or_else(PoisonError::into_inner);
        if !active.iter().any(|s| s.staging == self.staging) {
            return Err(self.commit_error(io::Error::other("the run was abandoned")));
        }
        journal.write(&self.staging).map_err(|e| self.commit_error(e))?;
        active.retain(|s| s.staging != self.staging);
        self.committed = true;
        journal.apply(&self.dir, &self.staging).map_err(|e| self.commit_error(e))?;
        Ok(journal.new.iter().map(|n| self.dir.join(n)).collect())
    }

    fn commit_error(&self, source: io::Error) -> FolderError {
        FolderError::Commit { path: self.dir.clone(), source }
    }
}

impl Drop for Folder {
    fn drop(&mut self) {
        if !self.committed && !self.staging.as_os_str().is_empty() {
            ACTIVE.lock().unwrap_or_else(PoisonError::into_inner).retain(|s| s.staging != self.staging);
            let _ = fs::remove_dir_all(&self.staging);
        }
        drop(self.lock.take());
        if self.created && !self.committed {
            // Only an empty folder goes: one another writer has since put files in stays.
            let _ = fs::remove_dir(&self.dir);
        }
    }
}

/// Removes the staging folders of this process and their lock files, after any commit in progress has
/// finished: what a second Ctrl-C does before quitting at once, so an abandoned run leaves nothing behind.
pub fn abandon() {
    let mut active = ACTIVE.lock().unwrap_or_else(PoisonError::into_inner);
    for Staged { staging, created } in active.drain(..) {
        let _ = fs::remove_dir_all(&staging);
        if let Some(dir) = staging.parent() {
            let _ = fs::remove_file(dir.join(LOCK));
            if created {
                let _ = fs::remove_dir(dir);
            }
        }
    }
}

/// Creates `dir` and its parents; returns whether it was new. A path that is not a folder is refused.
fn create(dir: &Path) -> Result<bool, FolderError> {
    if let Some(target) = dangling(dir) {
        let message = format!(
            "it is a link to {}, which does not exist; give a folder, or create the link's target first",
            shown_path(&target)
        );
        return Err(FolderError::Unwritable { dir: dir.to_owned(), message });
    }
    match fs::metadata(dir) {
        Ok(m) if m.is_dir() => return Ok(false),
        Ok(_) => {
            return Err(FolderError::Unwritable { dir: dir.to_owned(), message: "it is a file, not a folder".into() });
        }
        Err(_) => {}
    }
    fs::create_dir_all(dir).map_err(|e| unwritable(dir, &e))?;
    Ok(true)
}

fn unwritable(dir: &Path, e: &io::Error) -> FolderError {
    FolderError::Unwritable { dir: dir.to_owned(), message: plain_io(e) }
}

/// Where `dir` leads, when it is a symbolic link to nothing (creating the folder would fail with "File
/// exists", which says nothing of the link).
fn dangling(dir: &Path) -> Option<PathBuf> {
    let link = fs::symlink_metadata(dir).ok()?.file_type().is_symlink();
    (link && fs::metadata(dir).is_err()).then(|| fs::read_link(dir).ok()).flatten()
}

/// The lock of a folder: an exclusive advisory lock on [`LOCK`], which also says who holds it.
///
/// The file is removed when the lock is released, so a writer that opened it just before must check,
/// once it holds the lock, that the name still leads to the file it locked, and try again if not.
pub struct Lock {
    file: File,
    path: PathBuf,
}

impl Lock {
    /// Takes the lock of `dir`, or says who holds it.
    pub fn take(dir: &Path) -> Result<Lock, FolderError> {
        let path = dir.join(LOCK);
        loop {
            let file = open_no_follow(&path, true).map_err(|e| link_or(dir, &path, &e))?;
            match file.try_lock() {
                Ok(()) => {}
                Err(fs::TryLockError::WouldBlock) => {
                    return Err(FolderError::Busy { dir: dir.to_owned(), holder: holder(&path) });
                }
                Err(fs::TryLockError::Error(e)) => return Err(unwritable(dir, &e)),
            }
            if same_file(&file, &path) {
                let mut lock = Lock { file, path };
                lock.describe().map_err(|e| unwritable(dir, &e))?;
                return Ok(lock);
            }
        }
    }

    /// Writes who holds the lock, for the message a second writer gets.
    fn describe(&mut self) -> io::Result<()> {
        self.file.set_len(0)?;
        let command: Vec<String> = std::env::args().collect();
        let text = format!("pid {}: {}", std::process::id(), command.join(" "));
        self.file.write_all(clip(&text, 200).as_bytes())
    }
}

impl Drop for Lock {
    fn drop(&mut self) {
        // Removed while still held: see the type's note on why a waiting writer checks the name.
        let _ = fs::remove_file(&self.path);
    }
}

/// Who holds the lock at `path`, as its holder wrote it, on one short line. A holder writes that just after
/// it takes the lock, so an empty file is read again for a moment.
fn holder(path: &Path) -> String {
    for _ in 0..40 {
        let line = clip(read_own(path).unwrap_or_default().trim(), 200);
        if !line.is_empty() {
            return line;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    "a run that is just starting".to_owned()
}

/// A refused link at one of the folder's own names gets its own message.
fn link_or(dir: &Path, path: &Path, e: &io::Error) -> FolderError {
    if fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink()) {
        let message = format!("{} is a symbolic link, which is never followed; remove it", path.display());
        return FolderError::Unwritable { dir: dir.to_owned(), message };
    }
    unwritable(dir, e)
}

/// Opens `path` without following a link at its last component: for writing (created if missing), or
/// for reading.
fn open_no_follow(path: &Path, write: bool) -> io::Result<File> {
    let mut options = OpenOptions::new();
    options.read(true).write(write).create(write);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC).mode(0o644);
    }
    options.open(path)
}

/// Whether `path` still names the open `file`.
fn same_file(file: &File, path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        match (file.metadata(), fs::symlink_metadata(path)) {
            (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    {
        let _ = file;
        path.exists()
    }
}

/// The text of one of the folder's own small files (the lock, the index, a journal), read without following
/// a link; `None` if it is missing, a link, too large or not text.
fn read_own(path: &Path) -> Option<String> {
    read_capped(open_no_follow(path, false).ok()?, MOST_READ).ok()
}

/// Creates this writer's staging folder, exclusively and private to its owner.
fn stage(dir: &Path, created: bool) -> Result<PathBuf, FolderError> {
    for n in 0u32.. {
        let staging = dir.join(format!("{STAGING}{}-{n}", std::process::id()));
        let mut builder = fs::DirBuilder::new();
        #[cfg(unix)]
        std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
        match builder.create(&staging) {
            Ok(()) => {
                ACTIVE
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .push(Staged { staging: staging.clone(), created });
                return Ok(staging);
            }
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(unwritable(dir, &e)),
        }
    }
    unreachable!("a free staging name")
}

/// Finishes a commit a killed writer left half done, and removes whatever else killed writers left: their
/// staging folders and the temporary files of earlier versions. Called with the lock held, so nobody else
/// is writing.
fn recover(dir: &Path) -> io::Result<()> {
    for entry in fs::read_dir(dir)? {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let kind = entry.file_type()?;
        let path = entry.path();
        if name.starts_with(STAGING) && kind.is_dir() {
            if let Some(journal) = Journal::read(&path) {
                journal.apply(dir, &path)?;
            } else {
                fs::remove_dir_all(&path)?;
            }
        } else if name.starts_with(STAGING) || name.starts_with(LEGACY_TEMP) {
            remove_if_file(&path)?;
        }
    }
    Ok(())
}

/// The names of the files in `staging`, sorted.
fn file_names(staging: &Path) -> io::Result<Vec<String>> {
    let mut names = Vec::new();
    for entry in fs::read_dir(staging)? {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if entry.file_type()?.is_file() && plain(&name) {
            names.push(name);
        }
    }
    names.sort();
    Ok(names)
}

/// The files of the run in `dir` now: those its index lists. (A folder written before the index existed
/// has none: its files are replaced where the new run writes the same names, and otherwise left.)
fn earlier(dir: &Path) -> Vec<String> {
    let text = read_own(&dir.join(INDEX)).unwrap_or_default();
    text.lines().filter(|n| plain(n)).map(str::to_owned).collect()
}

/// A name the tool writes: one plain file name in the folder, not hidden.
fn plain(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 255
        && !name.starts_with('.')
        && !name.contains(['/', '\\', '\0'])
        && !name.chars().any(char::is_control)
}

/// Removes `path` if it is a file or a link (never what a link points to); a missing one is fine.
fn remove_if_file(path: &Path) -> io::Result<()> {
    match fs::symlink_metadata(path) {
        Ok(m) if !m.is_dir() => fs::remove_file(path),
        Ok(_) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(e),
    }
}

/// What a commit does: the new run's files, and the earlier run's, to be removed unless replaced.
struct Journal {
    new: Vec<String>,
    old: Vec<String>,
}

impl Journal {
    /// Writes the journal and the new index into the staging folder; the commit is decided once it is there.
    fn write(&self, staging: &Path) -> io::Result<()> {
        let index: String = self.new.iter().map(|n| format!("{n}\n")).collect();
        File::create_new(staging.join(INDEX))?.write_all(index.as_bytes())?;
        let lines = self.new.iter().map(|n| format!("new {n}\n")).chain(self.old.iter().map(|n| format!("old {n}\n")));
        let tmp = staging.join(".commit-tmp");
        File::create_new(&tmp)?.write_all(lines.collect::<String>().as_bytes())?;
        // Renamed into place so that a journal is never seen half written.
        fs::rename(tmp, staging.join(JOURNAL))
    }

    /// The journal a killed writer left in `staging`, if it got as far as writing one.
    fn read(staging: &Path) -> Option<Journal> {
        let text = read_own(&staging.join(JOURNAL))?;
        let mut journal = Journal { new: Vec::new(), old: Vec::new() };
        for line in text.lines() {
            match line.split_once(' ') {
                Some(("new", n)) if plain(n) => journal.new.push(n.to_owned()),
                Some(("old", n)) if plain(n) => journal.old.push(n.to_owned()),
                _ => {}
            }
        }
        Some(journal)
    }

    /// Carries the commit out; safe to repeat after a kill part-way through.
    fn apply(&self, dir: &Path, staging: &Path) -> io::Result<()> {
        remove_if_file(&dir.join(INDEX))?;
        // The manifest goes last of the files, for readers that take it as the sign of a whole run.
        let (manifest, rest): (Vec<&String>, Vec<&String>) = self.new.iter().partition(|n| *n == "manifest.json");
        for name in rest.into_iter().chain(manifest) {
            let from = staging.join(name);
            if fs::symlink_metadata(&from).is_ok() {
                fs::rename(from, dir.join(name))?;
            }
        }
        for name in self.old.iter().filter(|n| !self.new.contains(n)) {
            remove_if_file(&dir.join(name))?;
        }
        if fs::symlink_metadata(staging.join(INDEX)).is_ok() {
            fs::rename(staging.join(INDEX), dir.join(INDEX))?;
        }
        fs::remove_dir_all(staging)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(dir: &Path) -> Vec<String> {
        let mut n: Vec<String> =
            fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
        n.sort();
        n
    }

    #[test]
    fn a_commit_replaces_the_earlier_run_and_leaves_other_files_alone() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("out");
        let first = Folder::open(&dir).unwrap();
        fs::write(first.staging().join("a.parquet"), "1").unwrap();
        fs::write(first.staging().join("b.png"), "1").unwrap();
        first.commit().unwrap();
        fs::write(dir.join("notes.txt"), "mine").unwrap();
        let second = Folder::open(&dir).unwrap();
        fs::write(second.staging().join("a.parquet"), "2").unwrap();
        second.commit().unwrap();
        assert_eq!(names(&dir), [INDEX, "a.parquet", "notes.txt"]);
        assert_eq!(fs::read_to_string(dir.join("a.parquet")).unwrap(), "2");
    }

    #[test]
    fn a_second_writer_is_refused_while_the_first_holds_the_folder() {
        let tmp = tempfile::tempdir().unwrap();
        let first = Folder::open(tmp.path()).unwrap();
        let Err(FolderError::Busy { holder, .. }) = Folder::open(tmp.path()) else { panic!("refused") };
        assert!(holder.starts_with(&format!("pid {}", std::process::id())), "{holder}");
        drop(first);
        assert!(Folder::open(tmp.path()).is_ok(), "free again once the first is done");
    }

    #[test]
    fn a_dropped_folder_leaves_nothing_behind() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("new");
        let folder = Folder::open(&dir).unwrap();
        fs::write(folder.staging().join("a.parquet"), "1").unwrap();
        drop(folder);
        assert!(!dir.exists(), "a folder it created and never committed to is removed");
        fs::create_dir(&dir).unwrap();
        drop(Folder::open(&dir).unwrap());
        assert!(names(&dir).is_empty());
    }

    #[test]
    fn a_commit_cut_short_is_finished_by_the_next_writer() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        fs::write(dir.join(INDEX), "old.parquet\nshared.parquet\n").unwrap();
        fs::write(dir.join("old.parquet"), "old").unwrap();
        fs::write(dir.join("shared.parquet"), "old").unwrap();
        // A killed writer's staging folder: its journal written, one file already renamed in.
        let staging = dir.join(".staging-1-0");
        fs::create_dir(&staging).unwrap();
        fs::write(staging.join("new.parquet"), "new").unwrap();
        fs::write(staging.join(INDEX), "new.parquet\nshared.parquet\n").unwrap();
        fs::write(dir.join("shared.parquet"), "new").unwrap();
        let journal = "new new.parquet\nnew shared.parquet\nold old.parquet\nold shared.parquet\n";
        fs::write(staging.join(JOURNAL), journal).unwrap();
        fs::remove_file(dir.join(INDEX)).unwrap();
        // And an uncommitted one, and an earlier version's temporary file.
        fs::create_dir(dir.join(".staging-2-0")).unwrap();
        fs::write(dir.join(".partial-summary.parquet"), "x").unwrap();
        drop(Folder::open(dir).unwrap());
        assert_eq!(names(dir), [INDEX, "new.parquet", "shared.parquet"]);
        assert_eq!(fs::read_to_string(dir.join(INDEX)).unwrap(), "new.parquet\nshared.parquet\n");
    }

    #[cfg(unix)]
    #[test]
    fn links_planted_in_the_folder_are_never_written_through() {
        let tmp = tempfile::tempdir().unwrap();
        let victim = tmp.path().join("victim");
        fs::write(&victim, "precious").unwrap();
        let dir = tmp.path().join("out");
        fs::create_dir(&dir).unwrap();
        let pid = std::process::id();
        for name in [format!("{STAGING}{pid}-0"), "a.parquet".into(), INDEX.into(), ".partial-a.parquet".into()] {
            std::os::unix::fs::symlink(&victim, dir.join(name)).unwrap();
        }
        let folder = Folder::open(&dir).unwrap();
        fs::write(folder.staging().join("a.parquet"), "new").unwrap();
        folder.commit().unwrap();
        assert_eq!(fs::read_to_string(&victim).unwrap(), "precious");
        assert_eq!(fs::read_to_string(dir.join("a.parquet")).unwrap(), "new");
        std::os::unix::fs::symlink(&victim, dir.join(LOCK)).unwrap();
        let Err(e) = Folder::open(&dir) else { panic!("a planted lock link is refused") };
        assert!(e.to_string().contains("never followed"), "{e}");
        assert_eq!(fs::read_to_string(&victim).unwrap(), "precious");
    }
}
