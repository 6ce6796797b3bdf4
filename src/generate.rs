//! The commands that write text generated from the command line's own definition or a rule set's schema:
//! `init` (a commented starter config), `completions` (a shell's completion script) and `man` (the manual
//! pages). Files are written whole under a temporary name in their folder, then renamed into place, so a
//! reader never sees half a file; an existing file is replaced only when asked ([`Existing`]).

use std::fs::{self, File};
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::core::config::starter;
use crate::core::games::shipped;
use crate::core::ruleset::Entry;

use crate::cli::{CompletionsArgs, InitArgs, ManArgs};
use crate::failure::{Failure, bad_input, emit, failed};

/// Whether writing a file may replace one already there.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Existing {
    Keep,
    Replace,
}

/// `init`: the rule set's starter config, to `--out` (or `<table>.toml`, or stdout for `-`).
pub fn init(a: InitArgs) -> Result<(), Failure> {
    let set = rule_set(&a.rule_set)?;
    let file = a.out.unwrap_or_else(|| PathBuf::from(format!("{}.toml", set.table())));
    let stdout = file == Path::new("-");
    let existing = if a.force { Existing::Replace } else { Existing::Keep };
    if !stdout && existing == Existing::Keep && file.exists() {
        return Err(exists(&file));
    }
    let named = if stdout { Path::new("starter") } else { file.as_path() };
    let no_starter = || bad_input(format!("the rule set [{}] ships no starter config", set.table()));
    let text = starter::commented(set, named).ok_or_else(no_starter)??;
    if stdout {
        return emit(text);
    }
    write_file(&file, text.as_bytes(), existing)?;
    eprintln!("wrote {}: check it with `intercept-sim validate {}`", file.display(), file.display());
    Ok(())
}

/// The shipped rule set named `name`: its table, with `-` allowed for `_` (as `check`'s subcommands spell them).
pub fn rule_set(name: &str) -> Result<&'static dyn Entry, Failure> {
    let registry = shipped();
    let refused = || {
        let allowed = registry.tables().join(", ");
        bad_input(format!("no rule set has the table [{name}]; allowed: {allowed}"))
    };
    registry.find(&name.replace('-', "_")).ok_or_else(refused)
}

/// `completions SHELL`: the script on stdout.
pub fn completions(a: CompletionsArgs) -> Result<(), Failure> {
    let mut script = Vec::new();
    clap_complete::generate(a.shell, &mut crate::cli::command(), "intercept-sim", &mut script);
    let script = String::from_utf8(script).map_err(failed)?;
    emit(match a.shell {
        // clap_complete's bash script spells a subcommand's state `intercept__subcmd__sim__subcmd__run` in its
        // case arms but `intercept__sim__subcmd__run` where it sets it, so no subcommand's options complete
        // for a hyphenated bin name (clap-rs/clap#6421, open). The arms are respelled the way the state is.
        clap_complete::Shell::Bash => script.replace("intercept__subcmd__sim", "intercept__sim"),
        _ => script,
    })
}

/// `man`: the main page on stdout, or every command's page into `--dir`.
pub fn man(a: ManArgs) -> Result<(), Failure> {
    let mut cli = crate::cli::command().disable_help_subcommand(true);
    cli.build();
    let Some(dir) = a.dir else { return emit(String::from_utf8(page(&cli)).map_err(failed)?) };
    fs::create_dir_all(&dir).map_err(|e| bad_input(format!("--dir {}: {e}", dir.display())))?;
    let mut written = 0;
    write_pages(&cli, &dir, &mut written)?;
    eprintln!("wrote {written} manual pages to {}", dir.display());
    Ok(())
}

/// The command's page and those of its subcommands, depth first, one file each (`intercept-sim-run.1`).
fn write_pages(cmd: &clap::Command, dir: &Path, written: &mut usize) -> Result<(), Failure> {
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        write_pages(sub, dir, written)?;
    }
    let name = clap_mangen::Man::new(cmd.clone()).get_filename();
    write_file(&dir.join(name), &page(cmd), Existing::Replace)?;
    *written += 1;
    Ok(())
}

/// One command's manual page, in roff.
fn page(cmd: &clap::Command) -> Vec<u8> {
    let mut roff = Vec::new();
    clap_mangen::Man::new(cmd.clone()).render(&mut roff).expect("writing to memory cannot fail");
    roff
}

/// Writes `bytes` to `file` through a temporary file in the same folder. Unless `existing` allows it, a
/// file already there is kept and the write refused (exit 2), even one that appeared meanwhile: the
/// temporary file is linked to the name, which fails if the name is taken.
pub fn write_file(file: &Path, bytes: &[u8], existing: Existing) -> Result<(), Failure> {
    let name = file.file_name().ok_or_else(|| bad_input(format!("{}: not a file name", file.display())))?;
    let tmp = file.with_file_name(format!(".{}.{}.tmp", name.to_string_lossy(), std::process::id()));
    let cannot = |e: std::io::Error| bad_input(format!("{}: cannot write: {e}", file.display()));
    File::create_new(&tmp).and_then(|mut f| f.write_all(bytes).and_then(|()| f.sync_all())).map_err(cannot)?;
    let placed = match existing {
        Existing::Replace => fs::rename(&tmp, file),
        Existing::Keep => fs::hard_link(&tmp, file),
    };
    let _ = if existing == Existing::Keep || placed.is_err() { fs::remove_file(&tmp) } else { Ok(()) };
    match placed {
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Err(exists(file)),
        other => other.map_err(cannot),
    }
}

fn exists(file: &Path) -> Failure {
    bad_input(format!("{} exists; add --force to replace it, or name another file with -o", file.display()))
}
