//! The network built into the binary: the one `Use NNUE` evaluates with
//! until `EvalFile` names another.

use super::net::Network;
use once_cell::sync::Lazy;
use std::sync::Arc;

/// The embedded file's name; its hash part is checked by a test.
pub const NAME: &str = "nn-239453d7ff50.jnn";
static BYTES: &[u8] = include_bytes!("../../nets/nn-239453d7ff50.jnn");

static NET: Lazy<Result<Arc<Network>, String>> =
    Lazy::new(|| Network::from_bytes(BYTES).map(Arc::new));

/// The embedded network (an error only if the build embedded a bad file,
/// which the tests rule out).
pub fn network() -> Result<Arc<Network>, String> {
    NET.clone()
}

#[cfg(test)]
mod tests {
    #[test]
    fn embedded_net_loads_under_its_own_name() {
        let net = super::network().unwrap();
        assert_eq!(net.name(), super::NAME);
    }
}
