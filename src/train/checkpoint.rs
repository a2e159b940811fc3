//! Float checkpoints, written after every epoch, from which training
//! resumes exactly: parameters, the optimiser's moments and step, the
//! epochs done and the scale. Little-endian: magic `JGNNCKPT`, version
//! (u32), hidden (u32), epochs done (u32), scale (f32), step (u64), then
//! params, m and v as f32.

use super::model::Model;
use super::optim::AdamW;
use super::trainer::check_scale;
use crate::util::file::open_regular;
use std::io::Read;
use std::path::Path;

const MAGIC: &[u8; 8] = b"JGNNCKPT";
const VERSION: u32 = 1;
const HEAD: usize = 32;

pub struct Checkpoint {
    pub model: Model,
    pub adam: AdamW,
    pub epochs_done: u32,
    pub scale: f32,
}

pub fn save(path: &Path, c: &Checkpoint) -> Result<(), String> {
    let mut b = Vec::with_capacity(HEAD + 12 * c.model.params.len());
    b.extend_from_slice(MAGIC);
    b.extend_from_slice(&VERSION.to_le_bytes());
    b.extend_from_slice(&(c.model.hidden as u32).to_le_bytes());
    b.extend_from_slice(&c.epochs_done.to_le_bytes());
    b.extend_from_slice(&c.scale.to_le_bytes());
    b.extend_from_slice(&c.adam.t.to_le_bytes());
    for v in c.model.params.iter().chain(&c.adam.m).chain(&c.adam.v) {
        b.extend_from_slice(&v.to_le_bytes());
    }
    // Written aside and renamed, so a kill never leaves half a checkpoint.
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, &b).map_err(|e| format!("{}: {e}", tmp.display()))?;
    std::fs::rename(&tmp, path).map_err(|e| format!("{}: {e}", path.display()))
}

/// Reads a checkpoint: a regular file, its header first, then exactly the
/// size the header's hidden size implies. A checkpoint with a scale or a
/// number that is not finite is refused: training on from it would only
/// spread the NaN.
pub fn load(path: &Path, weight_decay: f32) -> Result<Checkpoint, String> {
    let name = path.display();
    let (mut file, len) = open_regular(path)?;
    let mut head = [0u8; HEAD];
    file.read_exact(&mut head)
        .map_err(|_| format!("{name}: not a Janggun checkpoint"))?;
    if &head[0..8] != MAGIC {
        return Err(format!("{name}: not a Janggun checkpoint"));
    }
    let u32_at = |a: usize| u32::from_le_bytes([head[a], head[a + 1], head[a + 2], head[a + 3]]);
    if u32_at(8) != VERSION {
        return Err(format!("{name}: checkpoint version {}", u32_at(8)));
    }
    let hidden = u32_at(12) as usize;
    crate::nnue::layout::check_hidden(hidden).map_err(|e| format!("{name}: {e}"))?;
    let n = Model::len_for(hidden);
    let want = HEAD + 12 * n;
    if len != want as u64 {
        return Err(format!("{name}: {len} bytes, expected {want}"));
    }
    let scale = f32::from_le_bytes([head[20], head[21], head[22], head[23]]);
    check_scale(scale).map_err(|e| format!("{name}: {e}"))?;
    let mut body = Vec::with_capacity(want - HEAD);
    file.take((want - HEAD) as u64)
        .read_to_end(&mut body)
        .map_err(|e| format!("{name}: {e}"))?;
    if body.len() != want - HEAD {
        return Err(format!("{name}: the file shrank while being read"));
    }
    let floats: Vec<f32> = body
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    if let Some(i) = floats.iter().position(|v| !v.is_finite()) {
        let what = ["parameter", "first moment", "second moment"][i / n];
        return Err(format!("{name}: {what} {} is not finite", i % n));
    }
    let mut adam = AdamW::new(n, weight_decay);
    adam.m = floats[n..2 * n].to_vec();
    adam.v = floats[2 * n..].to_vec();
    let mut t = [0u8; 8];
    t.copy_from_slice(&head[24..32]);
    adam.t = u64::from_le_bytes(t);
    Ok(Checkpoint {
        model: Model {
            hidden,
            params: floats[..n].to_vec(),
        },
        adam,
        epochs_done: u32_at(16),
        scale,
    })
}
