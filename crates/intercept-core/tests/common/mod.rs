//! What several tests of the core share: the shipped configs.

use std::path::{Path, PathBuf};

/// Every shipped config, `configs/<rule set>/<name>.toml` at the workspace's root, in path order.
pub fn shipped_configs() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../configs");
    let mut all: Vec<PathBuf> = std::fs::read_dir(root)
        .unwrap()
        .flat_map(|d| std::fs::read_dir(d.unwrap().path()).unwrap().map(|f| f.unwrap().path()))
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    all.sort();
    all
}
