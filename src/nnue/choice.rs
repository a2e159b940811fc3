//! Which evaluation a search uses, named once for every door that picks
//! it: the protocol's `Use NNUE` and `EvalFile`, `janggun bench
//! --classical/--net` and `janggun datagen --nnue`. A [`NetChoice`] says
//! which; an [`Evaluator`] is that choice with its net loaded, and is what
//! `search::Settings` holds.

use super::embedded;
use super::net::Network;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Which evaluation a search uses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetChoice {
    /// The hand-written terms of `search::eval`, no net.
    Classical,
    /// The net built into the binary.
    Embedded,
    /// A net file.
    File(PathBuf),
}

impl NetChoice {
    /// The net an `EvalFile` value names: the embedded net by its name (or
    /// by no name) needs no file.
    pub fn from_eval_file(name: &str) -> NetChoice {
        if name.is_empty() || name == embedded::NAME {
            NetChoice::Embedded
        } else {
            NetChoice::File(PathBuf::from(name))
        }
    }

    /// The file `path` when one is given, else `otherwise`.
    pub fn file_or(path: Option<&Path>, otherwise: NetChoice) -> NetChoice {
        path.map_or(otherwise, |p| NetChoice::File(p.to_path_buf()))
    }
}

/// A [`NetChoice`] with its net loaded. The classical evaluation keeps the
/// net it was switched from, so that `Use NNUE` off and on again comes back
/// to `EvalFile`'s net rather than the embedded one.
#[derive(Clone, Debug)]
pub struct Evaluator {
    /// The file of the net (`None`: the embedded net).
    file: Option<PathBuf>,
    /// That net, loaded: always there unless `classical`, where it is
    /// loaded only once a net is asked for.
    net: Option<Arc<Network>>,
    classical: bool,
}

impl Evaluator {
    /// The classical evaluation, loading nothing.
    pub fn classical() -> Evaluator {
        Evaluator {
            file: None,
            net: None,
            classical: true,
        }
    }

    /// The evaluation `choice` names, its net file read and checked.
    pub fn load(choice: &NetChoice) -> Result<Evaluator, String> {
        match choice {
            NetChoice::Classical => Ok(Evaluator::classical()),
            NetChoice::Embedded | NetChoice::File(_) => {
                let mut e = Evaluator::classical();
                e.choose_net(choice)?;
                e.classical = false;
                Ok(e)
            }
        }
    }

    /// The choice this evaluation was loaded from.
    pub fn choice(&self) -> NetChoice {
        match (&self.file, self.classical) {
            (_, true) => NetChoice::Classical,
            (Some(f), false) => NetChoice::File(f.clone()),
            (None, false) => NetChoice::Embedded,
        }
    }

    /// The net a search evaluates with; `None`: the classical evaluation.
    pub fn network(&self) -> Option<&Network> {
        if self.classical {
            None
        } else {
            self.net.as_deref()
        }
    }

    /// What a log or a resume point calls this evaluation: `classical`, or
    /// the net's name.
    pub fn name(&self) -> String {
        self.network()
            .map_or_else(|| "classical".to_string(), Network::name)
    }

    /// The net's file as `EvalFile` shows it, whether or not the net is in
    /// use: the embedded net by its name.
    pub fn net_file(&self) -> String {
        self.file
            .as_ref()
            .map_or_else(|| embedded::NAME.to_string(), |f| f.display().to_string())
    }

    /// Switches between the classical evaluation and the net (`Use NNUE`).
    /// On error (the embedded net failing to load, which a test rules
    /// out) nothing changes.
    pub fn set_classical(&mut self, classical: bool) -> Result<(), String> {
        if !classical && self.net.is_none() {
            self.net = Some(embedded::network()?);
        }
        self.classical = classical;
        Ok(())
    }

    /// Loads the net `choice` names (`EvalFile`), to be used now or once
    /// the classical evaluation is switched off; the classical choice
    /// keeps the net as it is. On error nothing changes.
    pub fn choose_net(&mut self, choice: &NetChoice) -> Result<(), String> {
        let (file, net) = match choice {
            NetChoice::Classical => return Ok(()),
            NetChoice::Embedded => (None, embedded::network()?),
            NetChoice::File(p) => (Some(p.clone()), Arc::new(Network::load(p)?)),
        };
        self.file = file;
        self.net = Some(net);
        Ok(())
    }
}

/// The embedded net, or the classical evaluation should the embedded net
/// fail to load (a test rules that out).
impl Default for Evaluator {
    fn default() -> Evaluator {
        Evaluator::load(&NetChoice::Embedded).unwrap_or_else(|_| Evaluator::classical())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn choices_round_trip() {
        let e = Evaluator::default();
        assert_eq!(e.choice(), NetChoice::Embedded);
        assert_eq!(e.name(), embedded::NAME);
        assert_eq!(e.net_file(), embedded::NAME);
        let c = Evaluator::load(&NetChoice::Classical).unwrap();
        assert_eq!(c.choice(), NetChoice::Classical);
        assert!(c.network().is_none());
        assert_eq!(c.name(), "classical");
        assert_eq!(NetChoice::from_eval_file(""), NetChoice::Embedded);
        assert_eq!(
            NetChoice::from_eval_file(embedded::NAME),
            NetChoice::Embedded
        );
        assert_eq!(
            NetChoice::from_eval_file("x.jnn"),
            NetChoice::File("x.jnn".into())
        );
    }

    #[test]
    fn classical_remembers_the_net() {
        let mut e = Evaluator::default();
        e.set_classical(true).unwrap();
        assert!(e.network().is_none());
        assert_eq!(e.net_file(), embedded::NAME);
        e.set_classical(false).unwrap();
        assert_eq!(e.choice(), NetChoice::Embedded);
        // A net file that fails to load changes nothing.
        let bad = NetChoice::File("/nonexistent/net.jnn".into());
        assert!(e.choose_net(&bad).is_err());
        assert_eq!(e.choice(), NetChoice::Embedded);
        assert!(Evaluator::load(&bad).is_err());
    }
}
