//! Match statistics from game pairs (pentanomial): score, logistic Elo with
//! a 95% error bar, normalized Elo, LOS, and the generalized SPRT
//! log-likelihood ratio in normalized Elo as fishtest and fastchess compute
//! it (the t-value statistic, with the maximum-likelihood distributions
//! found from the secular equation).

use std::f64::consts::LN_10;

/// Frequencies of pair scores 0, 1/2, 1, 3/2, 2 (LL, LD, WL+DD, WD, WW).
pub type Penta = [u64; 5];

/// Standard normal CDF. LOS is read near 0% and 100%, where short
/// polynomial approximations of erf lose their relative accuracy, so erfc
/// is computed exactly enough: Taylor series below 3, continued fraction above.
pub fn phi(x: f64) -> f64 {
    0.5 * erfc(-x / std::f64::consts::SQRT_2)
}

fn erfc(x: f64) -> f64 {
    if x < 0.0 {
        return 2.0 - erfc(-x);
    }
    if x < 3.0 {
        // erf by its Taylor series, fine for moderate x.
        let mut sum = x;
        let mut term = x;
        let x2 = x * x;
        let mut n = 0.0;
        while term.abs() > 1e-17 * sum.abs() {
            n += 1.0;
            term *= -x2 / n;
            sum += term / (2.0 * n + 1.0);
        }
        1.0 - 2.0 / std::f64::consts::PI.sqrt() * sum
    } else {
        // Continued fraction (Lentz) for the tail.
        let mut f = x;
        let tiny = 1e-300;
        let mut c = x;
        let mut d = 0.0;
        for k in 1..200 {
            let a = k as f64 / 2.0;
            d = x + a * d;
            d = if d.abs() < tiny { tiny } else { d };
            c = x + a / c;
            c = if c.abs() < tiny { tiny } else { c };
            d = 1.0 / d;
            let delta = c * d;
            f *= delta;
            if (delta - 1.0).abs() < 1e-16 {
                break;
            }
        }
        (-x * x).exp() / (f * std::f64::consts::PI.sqrt())
    }
}

/// Standard normal quantile by bisection on `phi` (only used for a few
/// constants, so speed does not matter).
pub fn phi_inv(p: f64) -> f64 {
    let (mut lo, mut hi) = (-40.0, 40.0);
    for _ in 0..200 {
        let mid = (lo + hi) / 2.0;
        if phi(mid) < p {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    (lo + hi) / 2.0
}

pub fn elo_of_score(s: f64) -> f64 {
    -400.0 * (1.0 / s - 1.0).log10()
}

/// Elo per normalized t-value unit: 800 / ln 10.
pub const NELO_PER_NT: f64 = 800.0 / LN_10;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ScoreSummary {
    pub pairs: u64,
    /// Mean score per game.
    pub score: f64,
    pub elo: f64,
    /// Half-width of the 95% interval; NaN when it cannot be computed.
    pub elo_error: f64,
    pub nelo: f64,
    pub nelo_error: f64,
    pub los: f64,
}

/// Elo, error bar, normalized Elo and LOS from the pair frequencies.
pub fn summarize(p: &Penta) -> Option<ScoreSummary> {
    let n: u64 = p.iter().sum();
    if n == 0 {
        return None;
    }
    let nf = n as f64;
    let mu: f64 = p
        .iter()
        .enumerate()
        .map(|(i, &c)| i as f64 / 4.0 * c as f64)
        .sum::<f64>()
        / nf;
    let var: f64 = p
        .iter()
        .enumerate()
        .map(|(i, &c)| c as f64 * (i as f64 / 4.0 - mu).powi(2))
        .sum::<f64>()
        / nf;
    let sd = (var / nf).sqrt();
    let z = phi_inv(0.975);
    let elo = elo_of_score(mu);
    let bound = |s: f64| {
        if s > 0.0 && s < 1.0 {
            elo_of_score(s)
        } else {
            f64::NAN
        }
    };
    let elo_error = (bound(mu + z * sd) - bound(mu - z * sd)) / 2.0;
    let (nelo, nelo_error, los) = if var > 0.0 {
        let sigma_game = (2.0 * var).sqrt();
        (
            (mu - 0.5) / sigma_game * NELO_PER_NT,
            z * sd / sigma_game * NELO_PER_NT,
            phi((mu - 0.5) / sd),
        )
    } else {
        (
            f64::NAN,
            f64::NAN,
            if mu > 0.5 {
                1.0
            } else if mu < 0.5 {
                0.0
            } else {
                0.5
            },
        )
    };
    Some(ScoreSummary {
        pairs: n,
        score: mu,
        elo,
        elo_error,
        nelo,
        nelo_error,
        los,
    })
}

/// A distribution on the pair scores 0, 1/4, .., 1 (per game).
type Pdf = [(f64, f64); 5];

fn moments(pdf: &Pdf) -> (f64, f64) {
    let mu: f64 = pdf.iter().map(|(a, p)| a * p).sum();
    let var: f64 = pdf.iter().map(|(a, p)| p * (a - mu).powi(2)).sum();
    (mu, var)
}

/// Solves sum_i p_i a_i / (1 + x a_i) = 0 for x in the interval where all
/// denominators stay positive (the function decreases there).
fn secular(pdf: &Pdf) -> f64 {
    let v = pdf.iter().map(|p| p.0).fold(f64::INFINITY, f64::min);
    let w = pdf.iter().map(|p| p.0).fold(f64::NEG_INFINITY, f64::max);
    if v * w >= 0.0 {
        return 0.0;
    }
    let eps = 1e-9;
    let (mut lo, mut hi) = (-1.0 / w + eps, -1.0 / v - eps);
    let f = |x: f64| pdf.iter().map(|(a, p)| p * a / (1.0 + x * a)).sum::<f64>();
    for _ in 0..200 {
        let mid = (lo + hi) / 2.0;
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    (lo + hi) / 2.0
}

/// The maximum-likelihood distribution with t-value (mu - ref) / sigma = t,
/// given the observed one (fixed-point iteration on the secular equation).
fn mle_t_value(obs: &Pdf, reference: f64, t: f64) -> Pdf {
    let mut cur: Pdf = obs.map(|(a, _)| (a, 1.0 / 5.0));
    for _ in 0..10 {
        let (mu, var) = moments(&cur);
        let sigma = var.sqrt();
        let shifted: Pdf = obs.map(|(a, p)| {
            (
                a - reference - t * sigma * (1.0 + ((mu - a) / sigma).powi(2)) / 2.0,
                p,
            )
        });
        let x = secular(&shifted);
        let mut next = cur;
        for i in 0..5 {
            next[i] = (obs[i].0, obs[i].1 / (1.0 + x * shifted[i].0));
        }
        let change = (0..5)
            .map(|i| (next[i].1 - cur[i].1).abs())
            .fold(0.0, f64::max);
        cur = next;
        if change < 1e-9 {
            break;
        }
    }
    cur
}

/// Zero counts get a small prior, as fishtest does, so that logs stay finite.
fn to_pdf(p: &Penta) -> (f64, Pdf) {
    let r: Vec<f64> = p
        .iter()
        .map(|&c| if c == 0 { 1e-3 } else { c as f64 })
        .collect();
    let n: f64 = r.iter().sum();
    let mut pdf = [(0.0, 0.0); 5];
    for i in 0..5 {
        pdf[i] = (i as f64 / 4.0, r[i] / n);
    }
    (n, pdf)
}

/// The SPRT log-likelihood ratio of H1 (nelo1) against H0 (nelo0), both in
/// normalized Elo, for the pair frequencies.
pub fn llr_normalized(nelo0: f64, nelo1: f64, p: &Penta) -> f64 {
    if p.iter().sum::<u64>() == 0 {
        return 0.0;
    }
    // Per pair, sigma is sqrt(2) times smaller in per-game units.
    let t0 = nelo0 / NELO_PER_NT * std::f64::consts::SQRT_2;
    let t1 = nelo1 / NELO_PER_NT * std::f64::consts::SQRT_2;
    let (n, pdf) = to_pdf(p);
    let p0 = mle_t_value(&pdf, 0.5, t0);
    let p1 = mle_t_value(&pdf, 0.5, t1);
    n * (0..5)
        .map(|i| pdf[i].1 * (p1[i].1.ln() - p0[i].1.ln()))
        .sum::<f64>()
}

/// Wald's bounds: (lower, upper) = (ln(beta/(1-alpha)), ln((1-beta)/alpha)).
pub fn sprt_bounds(alpha: f64, beta: f64) -> (f64, f64) {
    ((beta / (1.0 - alpha)).ln(), ((1.0 - beta) / alpha).ln())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normal_cdf_and_quantile() {
        assert!((phi(0.0) - 0.5).abs() < 1e-15);
        assert!((phi(1.959963984540054) - 0.975).abs() < 1e-12);
        assert!((phi(-5.0) - 2.866515718791939e-7).abs() < 1e-18);
        assert!((phi_inv(0.975) - 1.959963984540054).abs() < 1e-9);
    }

    #[test]
    fn bounds() {
        let (lo, hi) = sprt_bounds(0.05, 0.05);
        assert!((lo + 2.944).abs() < 1e-3 && (hi - 2.944).abs() < 1e-3);
    }
}
