//! [`Registry`]: the rule sets a config may hold, each found by its table. The shipped one is
//! `shipped()` of the rule sets' folder (`games`); a program may register more ([`Registry::with`]).

use super::Entry;

/// The rule sets a config may hold, each found by its table.
#[derive(Clone, Debug)]
pub struct Registry {
    sets: Vec<&'static dyn Entry>,
}

impl Registry {
    /// A registry of these rule sets, in the order errors list their tables.
    pub fn new(sets: Vec<&'static dyn Entry>) -> Registry {
        Registry { sets }
    }

    /// The same registry with one more rule set.
    pub fn with(mut self, set: &'static dyn Entry) -> Registry {
        self.sets.push(set);
        self
    }

    /// Every registered rule set.
    pub fn sets(&self) -> &[&'static dyn Entry] {
        &self.sets
    }

    /// Every registered table name.
    pub fn tables(&self) -> Vec<&'static str> {
        self.sets.iter().map(|s| s.table()).collect()
    }

    /// The rule set whose table is `table`.
    pub fn find(&self, table: &str) -> Option<&'static dyn Entry> {
        self.sets.iter().copied().find(|s| s.table() == table)
    }
}
