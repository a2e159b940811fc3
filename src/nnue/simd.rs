//! The hot loops of inference (the accumulator update and the output
//! layer, CReLU or SCReLU), in AVX2 (chosen at run time, since the build
//! targets x86-64-v2) and in portable Rust. Both do wrapping 16-bit adds
//! and wrapping 32-bit sums, which are associative, so both paths give
//! exactly the same integers whatever order they add in. (The SCReLU
//! output's 16-bit product is exact only for the weights the loader
//! admits, `layout::check_output_row`; for those, both paths agree too.)
//!
//! Slices are `hidden` long, a multiple of 16 (the net loader checks).

/// Whether the AVX2 paths may run on this CPU.
#[inline]
pub fn has_avx2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// `dst = src + sum(adds) - sum(subs)`, lane by lane, wrapping.
#[inline]
pub fn update(dst: &mut [i16], src: &[i16], adds: &[&[i16]], subs: &[&[i16]]) {
    #[cfg(target_arch = "x86_64")]
    if has_avx2() && dst.len().is_multiple_of(16) {
        // SAFETY: AVX2 was detected just above, and `update_avx2` checks
        // every slice length against `dst` before it reads or writes.
        unsafe { update_avx2(dst, src, adds, subs) };
        return;
    }
    update_scalar(dst, src, adds, subs);
}

pub fn update_scalar(dst: &mut [i16], src: &[i16], adds: &[&[i16]], subs: &[&[i16]]) {
    dst.copy_from_slice(src);
    for a in adds {
        for (d, &w) in dst.iter_mut().zip(a.iter()) {
            *d = d.wrapping_add(w);
        }
    }
    for s in subs {
        for (d, &w) in dst.iter_mut().zip(s.iter()) {
            *d = d.wrapping_sub(w);
        }
    }
}

/// `sum(clamp(us, 0, qa) * w[..n]) + sum(clamp(them, 0, qa) * w[n..])`.
#[inline]
pub fn output(us: &[i16], them: &[i16], w: &[i16], qa: i16) -> i32 {
    #[cfg(target_arch = "x86_64")]
    if has_avx2() && us.len().is_multiple_of(16) {
        // SAFETY: AVX2 was detected just above; `output_avx2` checks the
        // slice lengths before reading.
        return unsafe { output_avx2::<false>(us, them, w, qa) };
    }
    output_scalar(us, them, w, qa)
}

pub fn output_scalar(us: &[i16], them: &[i16], w: &[i16], qa: i16) -> i32 {
    let n = us.len();
    let mut sum = 0i32;
    for (i, (&a, &b)) in us.iter().zip(them.iter()).enumerate() {
        let a = a.clamp(0, qa) as i32;
        let b = b.clamp(0, qa) as i32;
        sum = sum
            .wrapping_add(a.wrapping_mul(w[i] as i32))
            .wrapping_add(b.wrapping_mul(w[n + i] as i32));
    }
    sum
}

/// `sum(v * v * w[..n]) + sum(u * u * w[n..])` with `v = clamp(us, 0, qa)`
/// and `u = clamp(them, 0, qa)`: SCReLU's output layer. Exact (no
/// overflow anywhere) when `qa * |w| <= i16::MAX` for every weight and
/// `qa^2 * sum(|w|) <= i32::MAX`, which the loader checks
/// (`layout::check_output_row`).
#[inline]
pub fn output_screlu(us: &[i16], them: &[i16], w: &[i16], qa: i16) -> i32 {
    #[cfg(target_arch = "x86_64")]
    if has_avx2() && us.len().is_multiple_of(16) {
        // SAFETY: AVX2 was detected just above; `output_avx2` checks
        // the slice lengths before reading.
        return unsafe { output_avx2::<true>(us, them, w, qa) };
    }
    output_screlu_scalar(us, them, w, qa)
}

pub fn output_screlu_scalar(us: &[i16], them: &[i16], w: &[i16], qa: i16) -> i32 {
    let n = us.len();
    let mut sum = 0i32;
    for (i, (&a, &b)) in us.iter().zip(them.iter()).enumerate() {
        let a = a.clamp(0, qa) as i32;
        let b = b.clamp(0, qa) as i32;
        // The AVX2 path forms `v * w` in 16 bits first; the same here, so
        // that the two agree on any net, admitted or not.
        let aw = a.wrapping_mul(w[i] as i32) as i16 as i32;
        let bw = b.wrapping_mul(w[n + i] as i32) as i16 as i32;
        sum = sum
            .wrapping_add(aw.wrapping_mul(a))
            .wrapping_add(bw.wrapping_mul(b));
    }
    sum
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn update_avx2(dst: &mut [i16], src: &[i16], adds: &[&[i16]], subs: &[&[i16]]) {
    use std::arch::x86_64::*;
    let n = dst.len();
    if src.len() != n || adds.iter().chain(subs).any(|r| r.len() != n) {
        update_scalar(dst, src, adds, subs);
        return;
    }
    // A quiet move and a capture, nearly every update of a search: with
    // the row count fixed the compiler unrolls over the rows and keeps
    // their pointers in registers (the general loop below re-reads each
    // row's slice for every 16 lanes).
    match (adds, subs) {
        // SAFETY: AVX2 is enabled here as there, and every slice length
        // was checked against `dst` just above.
        ([a], [s]) => return unsafe { update_fixed_avx2(dst, src, [a], [s]) },
        // SAFETY: as above.
        ([a], [s, t]) => return unsafe { update_fixed_avx2(dst, src, [a], [s, t]) },
        _ => {}
    }
    for i in (0..n).step_by(16) {
        // SAFETY: every slice is `n` long (checked above), `n` is a multiple
        // of 16 (checked by the caller), so lanes i..i+16 are in bounds;
        // loadu/storeu need no alignment.
        unsafe {
            let mut v = _mm256_loadu_si256(src.as_ptr().add(i) as *const __m256i);
            for a in adds {
                v = _mm256_add_epi16(v, _mm256_loadu_si256(a.as_ptr().add(i) as *const __m256i));
            }
            for s in subs {
                v = _mm256_sub_epi16(v, _mm256_loadu_si256(s.as_ptr().add(i) as *const __m256i));
            }
            _mm256_storeu_si256(dst.as_mut_ptr().add(i) as *mut __m256i, v);
        }
    }
}

/// `update_avx2` for `A` rows added and `S` taken away, every slice
/// already checked to be `dst.len()` long, a multiple of 16.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn update_fixed_avx2<const A: usize, const S: usize>(
    dst: &mut [i16],
    src: &[i16],
    adds: [&[i16]; A],
    subs: [&[i16]; S],
) {
    use std::arch::x86_64::*;
    let n = dst.len();
    let adds = adds.map(|r| r.as_ptr());
    let subs = subs.map(|r| r.as_ptr());
    let (src, dst) = (src.as_ptr(), dst.as_mut_ptr());
    for i in (0..n).step_by(16) {
        // SAFETY: the caller checked that every slice is `n` long and `n`
        // is a multiple of 16, so lanes i..i+16 are in bounds of each;
        // loadu/storeu need no alignment.
        unsafe {
            let mut v = _mm256_loadu_si256(src.add(i) as *const __m256i);
            for a in adds {
                v = _mm256_add_epi16(v, _mm256_loadu_si256(a.add(i) as *const __m256i));
            }
            for s in subs {
                v = _mm256_sub_epi16(v, _mm256_loadu_si256(s.add(i) as *const __m256i));
            }
            _mm256_storeu_si256(dst.add(i) as *mut __m256i, v);
        }
    }
}

/// Both output layers in AVX2: `SQUARE` picks SCReLU (`v * v * w`) over
/// CReLU (`v * w`); it is a constant, so each gets its own loop.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn output_avx2<const SQUARE: bool>(us: &[i16], them: &[i16], w: &[i16], qa: i16) -> i32 {
    use std::arch::x86_64::*;
    let n = us.len();
    if them.len() != n || w.len() != 2 * n {
        return if SQUARE {
            output_screlu_scalar(us, them, w, qa)
        } else {
            output_scalar(us, them, w, qa)
        };
    }
    let zero = _mm256_setzero_si256();
    let top = _mm256_set1_epi16(qa);
    let mut sum = zero;
    for i in (0..n).step_by(16) {
        // SAFETY: `us` and `them` are `n` long and `w` is `2n` long
        // (checked above), `n` is a multiple of 16, so every load is in
        // bounds; loadu needs no alignment.
        unsafe {
            let a = _mm256_loadu_si256(us.as_ptr().add(i) as *const __m256i);
            let b = _mm256_loadu_si256(them.as_ptr().add(i) as *const __m256i);
            let wa = _mm256_loadu_si256(w.as_ptr().add(i) as *const __m256i);
            let wb = _mm256_loadu_si256(w.as_ptr().add(n + i) as *const __m256i);
            let a = _mm256_min_epi16(_mm256_max_epi16(a, zero), top);
            let b = _mm256_min_epi16(_mm256_max_epi16(b, zero), top);
            let (pa, pb) = if SQUARE {
                // v * w in 16 bits (exact for admitted weights), then madd
                // by v: v * v * w summed in neighbouring pairs into i32.
                (
                    _mm256_madd_epi16(_mm256_mullo_epi16(a, wa), a),
                    _mm256_madd_epi16(_mm256_mullo_epi16(b, wb), b),
                )
            } else {
                // Products fit in i32 (|a| <= 1024, |w| <= 32767); madd sums
                // neighbouring pairs, which the scalar path does too, modulo
                // 2^32.
                (_mm256_madd_epi16(a, wa), _mm256_madd_epi16(b, wb))
            };
            sum = _mm256_add_epi32(sum, pa);
            sum = _mm256_add_epi32(sum, pb);
        }
    }
    let lo = _mm256_castsi256_si128(sum);
    let hi = _mm256_extracti128_si256(sum, 1);
    let s = _mm_add_epi32(lo, hi);
    let s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0b01_00_11_10));
    let s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0b10_11_00_01));
    _mm_cvtsi128_si32(s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::layout::{DEFAULT_HIDDEN, HIDDEN_STEP};

    #[test]
    fn avx2_equals_scalar() {
        let mut rng = crate::util::rng::Rng::new(7);
        let mut next = move || rng.next_u64() as i16;
        for n in [HIDDEN_STEP, 2 * HIDDEN_STEP, DEFAULT_HIDDEN] {
            let src: Vec<i16> = (0..n).map(|_| next()).collect();
            let rows: Vec<Vec<i16>> = (0..4).map(|_| (0..n).map(|_| next()).collect()).collect();
            let mut a = vec![0i16; n];
            let mut b = vec![0i16; n];
            // The fixed kernels (one row added, one or two taken away) and
            // the general loop.
            for (adds, subs) in [(1, 1), (1, 2), (0, 0), (2, 2), (3, 1)] {
                let (plus, minus): (Vec<&[i16]>, Vec<&[i16]>) = (
                    rows[..adds].iter().map(|r| r.as_slice()).collect(),
                    rows[adds..adds + subs]
                        .iter()
                        .map(|r| r.as_slice())
                        .collect(),
                );
                update(&mut a, &src, &plus, &minus);
                update_scalar(&mut b, &src, &plus, &minus);
                assert_eq!(a, b, "n {n}: {adds} added, {subs} taken");
            }
            update(&mut a, &src, &[&rows[0], &rows[1]], &[&rows[2], &rows[3]]);
            update_scalar(&mut b, &src, &[&rows[0], &rows[1]], &[&rows[2], &rows[3]]);
            assert_eq!(a, b);
            let w: Vec<i16> = (0..2 * n).map(|_| next()).collect();
            for qa in [1i16, 255, 1024] {
                assert_eq!(
                    output(&a, &src, &w, qa),
                    output_scalar(&a, &src, &w, qa),
                    "n {n} qa {qa}"
                );
                // Any weights: the two paths wrap alike even where a net
                // with them would be refused.
                assert_eq!(
                    output_screlu(&a, &src, &w, qa),
                    output_screlu_scalar(&a, &src, &w, qa),
                    "n {n} qa {qa}"
                );
            }
            // Admitted weights: both equal the exact sum.
            let small: Vec<i16> = w.iter().map(|&x| x % 60).collect();
            let exact: i64 = (0..n)
                .map(|i| {
                    let v = a[i].clamp(0, 255) as i64;
                    let u = src[i].clamp(0, 255) as i64;
                    v * v * small[i] as i64 + u * u * small[n + i] as i64
                })
                .sum();
            assert_eq!(output_screlu(&a, &src, &small, 255) as i64, exact);
            assert_eq!(output_screlu_scalar(&a, &src, &small, 255) as i64, exact);
        }
        // The test compares two paths only where the CPU has both.
        eprintln!("avx2: {}", has_avx2());
    }
}
