//! Match statistics: the score with its 95% interval, the Elo difference it implies, and a sequential
//! probability ratio test (SPRT) that can stop a match once the answer is clear.
//!
//! The model is fishtest's trinomial one: each game scores 0, ½ or 1, drawn from an unknown
//! distribution (loss, draw, win); Elo = −400·log10(1/s − 1) for the mean score s. A count of zero is
//! replaced by [`PRIOR`] before any estimate, so that a match one engine wins every game still has a
//! distribution with some spread (without it the variance is 0 and every statistic degenerates).
//!
//! - The SPRT is the generalized one (GSPRT, fishtest's `LLR_logistic`): the log-likelihood ratio of
//!   the observed counts under the most likely distribution with mean s1 = score(elo1) against the most
//!   likely one with mean s0 = score(elo0). It accepts H1 (elo ≥ elo1) above ln((1−β)/α) and H0
//!   (elo ≤ elo0) below ln(β/(1−α)). Unlike the normal approximation it needs no variance estimate, so a
//!   one-sided run stops: with no draws it is exactly W·ln(s1/s0) + L·ln((1−s1)/(1−s0)).
//! - The score's interval is the Wilson-type one: the scores s with (ŝ − s)² ≤ z²·V(s)/N, V(s) being
//!   the variance of that most likely distribution with mean s. Without draws it is Wilson's interval,
//!   and unlike ŝ ± z·σ̂/√N it is not empty at 0% or 100% (30 wins of 30: 88.6% to 100%).
//!
//! Game pairs (one opening with both colours) would suit the pentanomial model, but its GSPRT treats a
//! won pair as one observation: 15 won pairs give LLR 2.00 at elo0 = 0, elo1 = 50, short of the 2.94
//! that accepts H1 at α = β = 0.05, where 30 won games give 4.01. The trinomial model stops such runs.

use serde::{Deserialize, Serialize};

/// Wins, losses and draws from one side's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Wld {
    pub wins: u32,
    pub losses: u32,
    pub draws: u32,
}

/// z for a two-sided 95% interval.
const Z95: f64 = 1.959_963_985;

/// The count that stands in for an outcome never seen (fishtest's regularisation).
pub const PRIOR: f64 = 1e-3;

/// The scores of a loss, a draw and a win.
const VALUES: [f64; 3] = [0.0, 0.5, 1.0];

impl Wld {
    pub fn games(&self) -> u32 {
        self.wins + self.losses + self.draws
    }

    /// Points: a win 1, a draw ½.
    pub fn points(&self) -> f64 {
        self.wins as f64 + self.draws as f64 / 2.0
    }

    /// Mean score per game (0.5 with no games).
    pub fn score(&self) -> f64 {
        let n = self.games();
        if n == 0 { 0.5 } else { self.points() / n as f64 }
    }

    /// The regularised count of games and the frequencies of loss, draw and win.
    fn frequencies(&self) -> (f64, [f64; 3]) {
        let counts = [self.losses, self.draws, self.wins].map(|c| if c == 0 { PRIOR } else { c as f64 });
        let n: f64 = counts.iter().sum();
        (n, counts.map(|c| c / n))
    }

    /// The 95% interval (low, high) of the mean score; (0, 1) with no games.
    pub fn score_interval(&self) -> (f64, f64) {
        let n = self.games();
        if n == 0 {
            return (0.0, 1.0);
        }
        let (_, freq) = self.frequencies();
        let observed = self.score();
        let k = Z95 * Z95 / n as f64;
        // Whether the score s is outside the interval.
        let rejected = |s: f64| {
            let mle = nearest_with_mean(&freq, s);
            let var: f64 = mle.iter().zip(VALUES).map(|(p, a)| p * (a - s).powi(2)).sum();
            (observed - s).powi(2) > k * var
        };
        // Each end is where `rejected` turns false on the way from 0 (or 1) to the observed score; the
        // means a distribution over {0, ½, 1} can take are inside (0, 1), so the search stays there.
        let edge = |far: f64| {
            if (far - observed).abs() < 1e-12 || !rejected(far) {
                return far.round();
            }
            let (mut out, mut inside) = (far, observed);
            for _ in 0..100 {
                let mid = 0.5 * (out + inside);
                if rejected(mid) { out = mid } else { inside = mid }
            }
            0.5 * (out + inside)
        };
        (edge(1e-9), edge(1.0 - 1e-9))
    }

    /// The Elo difference of the score (infinite at 0% or 100%).
    pub fn elo(&self) -> f64 {
        elo_of_score(self.score())
    }

    /// The 95% interval of the Elo difference: that of the score, converted (an end is infinite when
    /// the score's is 0% or 100%).
    pub fn elo_interval(&self) -> (f64, f64) {
        let (lo, hi) = self.score_interval();
        (elo_of_score(lo), elo_of_score(hi))
    }

    /// The same games seen from the other side.
    pub fn flip(&self) -> Wld {
        Wld { wins: self.losses, losses: self.wins, draws: self.draws }
    }

    pub fn add(&mut self, other: Wld) {
        self.wins += other.wins;
        self.losses += other.losses;
        self.draws += other.draws;
    }
}

/// The distribution over loss, draw and win with mean `s` that makes the observed frequencies `freq`
/// (all positive) most likely: `freq[i] / (1 + x·(a_i − s))`, x the root of
/// `Σ freq[i]·(a_i − s) / (1 + x·(a_i − s)) = 0` (fishtest's `MLE_expected`). The root lies between
/// the poles −1/(1 − s) and 1/s, where the sum falls from +∞ to −∞, so bisection finds it; `s` must
/// be inside (0, 1).
fn nearest_with_mean(freq: &[f64; 3], s: f64) -> [f64; 3] {
    let d = VALUES.map(|a| a - s);
    let f = |x: f64| -> f64 { freq.iter().zip(d).map(|(p, d)| p * d / (1.0 + x * d)).sum() };
    let (mut lo, mut hi) = (-1.0 / (1.0 - s), 1.0 / s);
    loop {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if f(mid) > 0.0 { lo = mid } else { hi = mid }
    }
    let x = 0.5 * (lo + hi);
    let mut out = [0.0; 3];
    for i in 0..3 {
        out[i] = freq[i] / (1.0 + x * d[i]);
    }
    out
}

/// Elo difference that gives the expected score `s`.
pub fn elo_of_score(s: f64) -> f64 {
    if s <= 0.0 {
        f64::NEG_INFINITY
    } else if s >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / s - 1.0).log10()
    }
}

/// Expected score of an Elo difference.
pub fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// An SPRT's hypotheses and error rates.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SprtVerdict {
    #[serde(rename = "h0")]
    AcceptH0,
    #[serde(rename = "h1")]
    AcceptH1,
    #[serde(rename = "continue")]
    Continue,
}

impl Sprt {
    /// Parses `elo0,elo1[,alpha,beta]` (alpha and beta default to 0.05).
    pub fn parse(s: &str) -> Result<Sprt, String> {
        let v: Result<Vec<f64>, _> = s.split(',').map(|p| p.trim().parse::<f64>()).collect();
        let v = v.map_err(|_| format!("SPRT '{s}': expected elo0,elo1[,alpha,beta]"))?;
        let sprt = match v.as_slice() {
            [e0, e1] => Sprt { elo0: *e0, elo1: *e1, alpha: 0.05, beta: 0.05 },
            [e0, e1, a, b] => Sprt { elo0: *e0, elo1: *e1, alpha: *a, beta: *b },
            _ => return Err(format!("SPRT '{s}': expected elo0,elo1[,alpha,beta]")),
        };
        sprt.check().map_err(|e| format!("SPRT '{s}': {e}"))?;
        Ok(sprt)
    }

    /// Whether its bounds make a test: finite elo0 < elo1 and 0 < alpha, beta < 0.5.
    pub fn check(&self) -> Result<(), String> {
        let finite = self.elo0.is_finite() && self.elo1.is_finite();
        let ok = finite
            && self.elo0 < self.elo1
            && (0.0..0.5).contains(&self.alpha)
            && (0.0..0.5).contains(&self.beta);
        if !ok || self.alpha == 0.0 || self.beta == 0.0 {
            return Err("need finite elo0 < elo1 and 0 < alpha, beta < 0.5".into());
        }
        Ok(())
    }

    /// The acceptance bounds (lower, upper) of the LLR.
    pub fn bounds(&self) -> (f64, f64) {
        ((self.beta / (1.0 - self.alpha)).ln(), ((1.0 - self.beta) / self.alpha).ln())
    }

    /// The generalized log-likelihood ratio of the results so far (0 with no games).
    pub fn llr(&self, r: &Wld) -> f64 {
        if r.games() == 0 {
            return 0.0;
        }
        let (n, freq) = r.frequencies();
        let p0 = nearest_with_mean(&freq, score_of_elo(self.elo0));
        let p1 = nearest_with_mean(&freq, score_of_elo(self.elo1));
        n * (0..3).map(|i| freq[i] * (p1[i].ln() - p0[i].ln())).sum::<f64>()
    }

    pub fn verdict(&self, r: &Wld) -> SprtVerdict {
        let (lo, hi) = self.bounds();
        let llr = self.llr(r);
        if llr >= hi {
            SprtVerdict::AcceptH1
        } else if llr <= lo {
            SprtVerdict::AcceptH0
        } else {
            SprtVerdict::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wld(wins: u32, losses: u32, draws: u32) -> Wld {
        Wld { wins, losses, draws }
    }

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn even_score_is_zero_elo() {
        let r = wld(10, 10, 5);
        assert!(close(r.score(), 0.5, 1e-12));
        assert!(close(r.elo(), 0.0, 1e-9));
    }

    #[test]
    fn known_values() {
        // 75% is about +191 Elo.
        assert!(close(wld(75, 25, 0).elo(), 190.85, 0.1));
        assert!(close(score_of_elo(elo_of_score(0.3)), 0.3, 1e-12));
    }

    #[test]
    fn the_nearest_distribution_has_the_asked_mean() {
        for freq in [[0.2, 0.3, 0.5], [PRIOR / 30.0, PRIOR / 30.0, 1.0 - 2.0 * PRIOR / 30.0]] {
            for s in [0.01, 0.3, 0.5, 0.571, 0.99] {
                let p = nearest_with_mean(&freq, s);
                let mean: f64 = p.iter().zip(VALUES).map(|(p, a)| p * a).sum();
                assert!(close(p.iter().sum(), 1.0, 1e-9), "{freq:?} {s}: {p:?}");
                assert!(close(mean, s, 1e-9), "{freq:?} {s}: {p:?}");
            }
        }
        // A distribution that already has the mean is its own nearest.
        let p = nearest_with_mean(&[0.2, 0.3, 0.5], 0.65);
        assert!(close(p[0], 0.2, 1e-9) && close(p[1], 0.3, 1e-9) && close(p[2], 0.5, 1e-9));
    }

    #[test]
    fn llr_matches_reference_values() {
        // Without draws the GSPRT is the binomial likelihood ratio, W·ln(s1/s0) + L·ln((1−s1)/(1−s0)),
        // by hand: s1 = score(50) = 0.571463, 30·ln(0.571463/0.5) = 4.0078 (the prior count of draws
        // and losses takes off 0.0001); s1 = score(10) = 0.514387,
        // 300·ln(1.028774) + 100·ln(0.971226) = 5.5908. With draws, fishtest's LLR_logistic
        // (stats/LLRcalc.py, the same regularisation) in python3 gives 1.97181 for W60 L40 D20 at 0,50
        // and −0.13082 for W10 L12 D3 at −10,10.
        let sprt = |s| Sprt::parse(s).unwrap();
        assert!(close(sprt("0,50").llr(&wld(30, 0, 0)), 4.00773, 1e-4));
        assert!(close(sprt("0,10").llr(&wld(300, 100, 0)), 5.59081, 1e-4));
        assert!(close(sprt("0,50").llr(&wld(60, 40, 20)), 1.97181, 1e-4));
        assert!(close(sprt("-10,10").llr(&wld(10, 12, 3)), -0.13082, 1e-4));
        assert_eq!(sprt("0,50").llr(&Wld::default()), 0.0);
    }

    #[test]
    fn a_one_sided_run_is_decided() {
        // 22 straight wins give LLR 2.939 and 23 give 3.073 (python3, as above); the bound is
        // ln(0.95/0.05) = 2.944.
        let sprt = Sprt::parse("0,50").unwrap();
        assert_eq!(sprt.verdict(&wld(22, 0, 0)), SprtVerdict::Continue);
        assert_eq!(sprt.verdict(&wld(23, 0, 0)), SprtVerdict::AcceptH1);
        assert_eq!(sprt.verdict(&wld(30, 0, 0)), SprtVerdict::AcceptH1);
        // Each loss is ln((1 − 0.571463)/0.5) = −0.1542: 19 give −2.930, 20 reach −3.085.
        assert_eq!(sprt.verdict(&wld(0, 19, 0)), SprtVerdict::Continue);
        assert_eq!(sprt.verdict(&wld(0, 20, 0)), SprtVerdict::AcceptH0);
    }

    #[test]
    fn sprt_stops_on_clear_results() {
        let sprt = Sprt::parse("0,10").unwrap();
        assert_eq!(sprt.verdict(&wld(300, 100, 0)), SprtVerdict::AcceptH1);
        assert_eq!(sprt.verdict(&wld(100, 300, 0)), SprtVerdict::AcceptH0);
        assert_eq!(sprt.verdict(&wld(3, 2, 0)), SprtVerdict::Continue);
        assert!(Sprt::parse("10,0").is_err());
        assert!(Sprt::parse("0,inf").is_err());
        assert!(Sprt::parse("0,5,0.05,0.1").is_ok());
    }

    #[test]
    fn score_intervals() {
        // Without draws, Wilson's interval: 30 of 30 gives 30/(30 + z²) = 0.88649 to 1; 75 of 100
        // gives 0.65696 to 0.82455.
        let (lo, hi) = wld(30, 0, 0).score_interval();
        assert!(close(lo, 0.88649, 1e-3) && hi == 1.0, "{lo} {hi}");
        let (lo, hi) = wld(0, 30, 0).score_interval();
        assert!(lo == 0.0 && close(hi, 1.0 - 0.88649, 1e-3), "{lo} {hi}");
        let (lo, hi) = wld(75, 25, 0).score_interval();
        assert!(close(lo, 0.65696, 1e-4) && close(hi, 0.82455, 1e-4), "{lo} {hi}");
        // With draws (python3, the same construction): 60-40-20 gives 0.50167 to 0.66034, 30 draws
        // 0.44323 to 0.55677: a spread even where every game ended alike.
        let (lo, hi) = wld(60, 40, 20).score_interval();
        assert!(close(lo, 0.50167, 1e-4) && close(hi, 0.66034, 1e-4), "{lo} {hi}");
        let (lo, hi) = wld(0, 0, 30).score_interval();
        assert!(close(lo, 0.44323, 1e-4) && close(hi, 0.55677, 1e-4), "{lo} {hi}");
        assert_eq!(Wld::default().score_interval(), (0.0, 1.0));
        // The Elo interval of a one-sided run has a finite end: +357 to +inf.
        let (elo_lo, elo_hi) = wld(30, 0, 0).elo_interval();
        assert!(close(elo_lo, 357.0, 1.0) && elo_hi == f64::INFINITY, "{elo_lo} {elo_hi}");
    }
}
