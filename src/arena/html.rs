//! `janggun match report`: stub.
pub fn main(_args: &[String]) -> Result<(), String> {
    Err("not yet".into())
}
