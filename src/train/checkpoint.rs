//! Float checkpoints, written after every epoch, from which training
//! resumes exactly: parameters, the optimiser's moments and step, the
//! epochs done, the scale and the architecture. Little-endian: magic
//! `JGNNCKPT`, version (u32), hidden (u32), epochs done (u32), scale (f32),
//! step (u64), in version 2 activation (u32) and buckets (u32), then
//! params, m and v as f32. Version 1 (before SCReLU and buckets) is read
//! as CReLU with one bucket.

use super::model::Model;
use super::optim::AdamW;
use super::trainer::check_scale;
use crate::nnue::layout::{Activation, Arch};
use crate::util::file::open_regular;
use std::io::Read;
use std::path::Path;

const MAGIC: &[u8; 8] = b"JGNNCKPT";
const VERSION: u32 = 2;
const HEAD_V1: usize = 32;
const HEAD: usize = 40;

pub struct Checkpoint {
    pub model: Model,
    pub adam: AdamW,
    pub epochs_done: u32,
    pub scale: f32,
}

pub fn save(path: &Path, c: &Checkpoint) -> Result<(), String> {
    let arch = c.model.arch;
    let mut b = Vec::with_capacity(HEAD + 12 * c.model.params.len());
    b.extend_from_slice(MAGIC);
    b.extend_from_slice(&VERSION.to_le_bytes());
    b.extend_from_slice(&(arch.hidden as u32).to_le_bytes());
    b.extend_from_slice(&c.epochs_done.to_le_bytes());
    b.extend_from_slice(&c.scale.to_le_bytes());
    b.extend_from_slice(&c.adam.t.to_le_bytes());
    b.extend_from_slice(&arch.activation.code().to_le_bytes());
    b.extend_from_slice(&(arch.buckets as u32).to_le_bytes());
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
    file.read_exact(&mut head[..HEAD_V1])
        .map_err(|_| format!("{name}: not a Janggun checkpoint"))?;
    if &head[0..8] != MAGIC {
        return Err(format!("{name}: not a Janggun checkpoint"));
    }
    let u32_at =
        |h: &[u8; HEAD], a: usize| u32::from_le_bytes([h[a], h[a + 1], h[a + 2], h[a + 3]]);
    let hidden = u32_at(&head, 12) as usize;
    let (head_len, arch) = match u32_at(&head, 8) {
        1 => (HEAD_V1, Arch::v1(hidden)),
        VERSION => {
            file.read_exact(&mut head[HEAD_V1..])
                .map_err(|_| format!("{name}: checkpoint too short"))?;
            let activation =
                Activation::from_code(u32_at(&head, 32)).map_err(|e| format!("{name}: {e}"))?;
            let buckets = u32_at(&head, 36) as usize;
            (
                HEAD,
                Arch {
                    hidden,
                    activation,
                    buckets,
                },
            )
        }
        v => return Err(format!("{name}: checkpoint version {v}")),
    };
    arch.check().map_err(|e| format!("{name}: {e}"))?;
    let n = Model::len_for(&arch);
    let want = head_len + 12 * n;
    if len != want as u64 {
        return Err(format!("{name}: {len} bytes, expected {want}"));
    }
    let scale = f32::from_le_bytes([head[20], head[21], head[22], head[23]]);
    check_scale(scale).map_err(|e| format!("{name}: {e}"))?;
    let mut body = Vec::with_capacity(want - head_len);
    file.take((want - head_len) as u64)
        .read_to_end(&mut body)
        .map_err(|e| format!("{name}: {e}"))?;
    if body.len() != want - head_len {
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
            arch,
            params: floats[..n].to_vec(),
        },
        adam,
        epochs_done: u32_at(&head, 16),
        scale,
    })
}
