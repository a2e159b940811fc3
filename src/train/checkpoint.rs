//! Float checkpoints, written after every epoch, from which training
//! resumes exactly: parameters, the optimiser's moments and step, the
//! epochs done, the scale and the architecture. Little-endian: magic
//! `JGNNCKPT`, version (u32), hidden (u32), epochs done (u32), scale (f32),
//! step (u64), in versions 2 and 3 activation (u32) and buckets (u32), in
//! versions 3 and 4 the input buckets (u32, the net file's code), in
//! version 4 whether the model is factorised (u32, 1; its params then end
//! with the factor block), then params, m and v as f32. Version 1 (before
//! SCReLU and buckets) is read as CReLU with one bucket, version 2 as no
//! input buckets, version 3 as unfactorised; a checkpoint is written as the
//! oldest version that holds its model.

use super::model::{check_scale, Model};
use super::optim::AdamW;
use crate::nnue::layout::{Activation, Arch, InputBuckets};
use crate::util::file::open_regular;
use crate::util::outfile::{write_whole, Existing};
use std::io::Read;
use std::path::Path;

const MAGIC: &[u8; 8] = b"JGNNCKPT";
const VERSION_2: u32 = 2;
const VERSION_3: u32 = 3;
const VERSION: u32 = 4;
const HEAD_V1: usize = 32;
const HEAD_V2: usize = 40;
const HEAD_V3: usize = 44;
const HEAD: usize = 48;

pub struct Checkpoint {
    pub model: Model,
    pub adam: AdamW,
    pub epochs_done: u32,
    pub scale: f32,
}

pub fn save(path: &Path, c: &Checkpoint) -> Result<(), String> {
    let arch = c.model.arch;
    let mut b = Vec::with_capacity(HEAD + 12 * c.model.params.len());
    let version = if c.model.factorized {
        VERSION
    } else if arch.input_buckets == InputBuckets::None {
        VERSION_2
    } else {
        VERSION_3
    };
    b.extend_from_slice(MAGIC);
    b.extend_from_slice(&version.to_le_bytes());
    b.extend_from_slice(&(arch.hidden as u32).to_le_bytes());
    b.extend_from_slice(&c.epochs_done.to_le_bytes());
    b.extend_from_slice(&c.scale.to_le_bytes());
    b.extend_from_slice(&c.adam.t.to_le_bytes());
    b.extend_from_slice(&arch.activation.code().to_le_bytes());
    b.extend_from_slice(&(arch.buckets as u32).to_le_bytes());
    if version >= VERSION_3 {
        b.extend_from_slice(&arch.input_buckets.code().to_le_bytes());
    }
    if version == VERSION {
        b.extend_from_slice(&1u32.to_le_bytes());
    }
    for v in c.model.params.iter().chain(&c.adam.m).chain(&c.adam.v) {
        b.extend_from_slice(&v.to_le_bytes());
    }
    // Written aside and renamed, so a kill never leaves half a checkpoint;
    // only a checkpoint is ever replaced.
    let existing = Existing::Prefix(&[MAGIC], "a Janggun trainer checkpoint");
    write_whole(path, &existing, &b)
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
    let (head_len, arch, factorized) = match u32_at(&head, 8) {
        1 => (HEAD_V1, Arch::v1(hidden), false),
        v @ (VERSION_2 | VERSION_3 | VERSION) => {
            let head_len = match v {
                VERSION => HEAD,
                VERSION_3 => HEAD_V3,
                _ => HEAD_V2,
            };
            file.read_exact(&mut head[HEAD_V1..head_len])
                .map_err(|_| format!("{name}: checkpoint too short"))?;
            let activation =
                Activation::from_code(u32_at(&head, 32)).map_err(|e| format!("{name}: {e}"))?;
            let buckets = u32_at(&head, 36) as usize;
            let input_buckets = match v {
                VERSION_2 => InputBuckets::None,
                _ => InputBuckets::from_code(u32_at(&head, 40))
                    .map_err(|e| format!("{name}: {e}"))?,
            };
            let factorized = match (v, u32_at(&head, 44)) {
                (VERSION, 1) if input_buckets != InputBuckets::None => true,
                (VERSION, f) => {
                    return Err(format!(
                        "{name}: factorised flag {f} with input buckets {input_buckets}"
                    ))
                }
                _ => false,
            };
            (
                head_len,
                Arch {
                    hidden,
                    activation,
                    buckets,
                    input_buckets,
                },
                factorized,
            )
        }
        v => return Err(format!("{name}: checkpoint version {v}")),
    };
    arch.check().map_err(|e| format!("{name}: {e}"))?;
    let n = Model::len_for(&arch, factorized);
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
            factorized,
            params: floats[..n].to_vec(),
        },
        adam,
        epochs_done: u32_at(&head, 16),
        scale,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str) -> std::path::PathBuf {
        std::env::temp_dir().join(format!("janggun-ckpt-{}-{name}", std::process::id()))
    }

    fn sample(arch: Arch) -> Checkpoint {
        let model = Model::new(arch, 3);
        let mut adam = AdamW::new(model.params.len(), 0.0);
        adam.m
            .iter_mut()
            .enumerate()
            .for_each(|(i, m)| *m = i as f32);
        adam.t = 77;
        Checkpoint {
            model,
            adam,
            epochs_done: 2,
            scale: 111.0,
        }
    }

    #[test]
    fn round_trip_and_version_1_files_read_as_crelu_with_one_bucket() {
        let arch = Arch {
            hidden: 16,
            activation: Activation::SCRelu,
            buckets: 8,
            input_buckets: InputBuckets::None,
        };
        let p = temp("v2.ckpt");
        save(&p, &sample(arch)).unwrap();
        let c = load(&p, 0.0).unwrap();
        assert_eq!(c.model.arch, arch);
        assert_eq!(c.model.params, sample(arch).model.params);
        assert_eq!((c.adam.t, c.epochs_done, c.scale), (77, 2, 111.0));
        // Bad fields of version 2: refused with the reason.
        let bytes = std::fs::read(&p).unwrap();
        for (at, v, why) in [
            (32, 9u8, "activation"),
            (36, 0, "buckets"),
            (36, 17, "buckets"),
        ] {
            let mut bad = bytes.clone();
            bad[at] = v;
            std::fs::write(&p, &bad).unwrap();
            let e = load(&p, 0.0).err().unwrap();
            assert!(e.contains(why), "{e}");
        }
        // Input buckets: version 3, the code checked; without them the
        // version 2 bytes as before.
        assert_eq!(u32::from_le_bytes(bytes[8..12].try_into().unwrap()), 2);
        for layout in [InputBuckets::Palace9, InputBuckets::Palace6] {
            let arch = Arch {
                input_buckets: layout,
                ..arch
            };
            save(&p, &sample(arch)).unwrap();
            let c = load(&p, 0.0).unwrap();
            assert_eq!(c.model.arch, arch);
            assert_eq!(c.model.params, sample(arch).model.params);
            let mut bad = std::fs::read(&p).unwrap();
            assert_eq!(
                (bad[8], bad.len()),
                (3, HEAD_V3 + 12 * c.model.params.len())
            );
            bad[40] = 3;
            std::fs::write(&p, &bad).unwrap();
            let e = load(&p, 0.0).err().unwrap();
            assert!(e.contains("input bucket layout code 3"), "{e}");
            // Factorised: version 4, the factor block after the file's
            // blocks, the flag checked.
            let mut f = sample(arch);
            f.model = Model::with_factor(arch, true, 3);
            f.model
                .params
                .iter_mut()
                .enumerate()
                .for_each(|(i, p)| *p = i as f32 * 1e-6);
            f.adam = AdamW::new(f.model.params.len(), 0.0);
            save(&p, &f).unwrap();
            let c = load(&p, 0.0).unwrap();
            assert!(c.model.factorized);
            assert_eq!(c.model.params, f.model.params);
            assert_eq!(
                c.model.params.len(),
                Model::len_for(&arch, false) + 1260 * 16
            );
            let good = std::fs::read(&p).unwrap();
            assert_eq!((good[8], good.len()), (4, HEAD + 12 * c.model.params.len()));
            for (at, v, why) in [
                (44, 2u8, "factorised flag 2"),
                (40, 0, "input buckets none"),
            ] {
                let mut bad = good.clone();
                bad[at] = v;
                std::fs::write(&p, &bad).unwrap();
                let e = load(&p, 0.0).err().unwrap();
                assert!(e.contains(why), "{e}");
            }
        }
        // A version 1 checkpoint (the layout before version 2): the same
        // bytes without the two fields.
        let v1 = Arch::v1(16);
        save(&p, &sample(v1)).unwrap();
        let mut bytes = std::fs::read(&p).unwrap();
        bytes.drain(HEAD_V1..HEAD_V2);
        bytes[8] = 1;
        std::fs::write(&p, &bytes).unwrap();
        let c = load(&p, 0.0).unwrap();
        assert_eq!(c.model.arch, v1);
        assert_eq!(c.model.params, sample(v1).model.params);
        assert_eq!(c.adam.m, sample(v1).adam.m);
        assert_eq!((c.adam.t, c.epochs_done), (77, 2));
        std::fs::remove_file(&p).ok();
    }
}
