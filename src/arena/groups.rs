//! Flags that take a group of `key=value` words (`--engine name=a cmd=b`,
//! `--sprt elo0=0 elo1=5`), each occurrence one group. clap's derive
//! hands a flag's values over only run together; this wrapper reads them
//! by occurrence from clap's matches.

use clap::{ArgMatches, Args, Command, FromArgMatches};

/// The clap ids of a derived struct's group flags.
pub trait GroupIds {
    const GROUPS: &'static [&'static str];
}

/// Derived flags `F` and the words of each occurrence of its group flags.
#[derive(Debug)]
pub struct Grouped<F> {
    pub flags: F,
    groups: Vec<(&'static str, Vec<Vec<String>>)>,
}

impl<F> Grouped<F> {
    /// The occurrences of the group flag `id`, in order, each its words.
    pub fn groups(&self, id: &str) -> &[Vec<String>] {
        self.groups
            .iter()
            .find(|(g, _)| *g == id)
            .map_or(&[], |(_, v)| v.as_slice())
    }
}

/// The words of each occurrence of flag `id` (an occurrence without
/// words is an empty group).
pub fn occurrences(m: &ArgMatches, id: &str) -> Vec<Vec<String>> {
    m.get_occurrences::<String>(id)
        .map(|o| o.map(|g| g.cloned().collect()).collect())
        .unwrap_or_default()
}

impl<F: FromArgMatches + GroupIds> FromArgMatches for Grouped<F> {
    fn from_arg_matches(m: &ArgMatches) -> Result<Self, clap::Error> {
        Ok(Grouped {
            flags: F::from_arg_matches(m)?,
            groups: F::GROUPS
                .iter()
                .map(|&id| (id, occurrences(m, id)))
                .collect(),
        })
    }

    fn update_from_arg_matches(&mut self, m: &ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(m)?;
        Ok(())
    }
}

impl<F: Args + GroupIds> Args for Grouped<F> {
    fn augment_args(cmd: Command) -> Command {
        F::augment_args(cmd)
    }

    fn augment_args_for_update(cmd: Command) -> Command {
        F::augment_args_for_update(cmd)
    }
}
