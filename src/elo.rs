//! Match statistics: score with its 95% error bar, the Elo difference it implies, and a sequential
//! probability ratio test (SPRT) that can stop a match once the answer is clear.
//!
//! The model is the usual one of engine testing (cutechess, fishtest's trinomial GSPRT): each game
//! scores 1, ½ or 0; the mean score s over N games has variance σ²/N with σ² estimated from the
//! outcomes; Elo = −400·log10(1/s − 1). The SPRT's log-likelihood ratio under the normal approximation is
//! `LLR = N·(s1 − s0)·(2s − s0 − s1) / (2σ²)`, where s0, s1 are the scores of elo0 and elo1; it accepts
//! H1 (elo ≥ elo1) above ln((1−β)/α) and H0 (elo ≤ elo0) below ln(β/(1−α)).

/// Wins, losses and draws from one side's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wld {
    pub wins: u32,
    pub losses: u32,
    pub draws: u32,
}

/// z for a two-sided 95% interval.
const Z95: f64 = 1.959_963_985;

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

    /// The per-game variance of the score.
    fn variance(&self) -> f64 {
        let n = self.games() as f64;
        if n == 0.0 {
            return 0.0;
        }
        let s = self.score();
        (self.wins as f64 * (1.0 - s).powi(2)
            + self.losses as f64 * s.powi(2)
            + self.draws as f64 * (0.5 - s).powi(2))
            / n
    }

    /// Half-width of the 95% interval of the mean score.
    pub fn score_error(&self) -> f64 {
        let n = self.games() as f64;
        if n == 0.0 { 0.5 } else { Z95 * (self.variance() / n).sqrt() }
    }

    /// Elo difference and the half-width of its 95% interval (infinite at a 0% or 100% score).
    pub fn elo(&self) -> (f64, f64) {
        let s = self.score();
        let e = self.score_error();
        let lo = elo_of_score((s - e).max(0.0));
        let hi = elo_of_score((s + e).min(1.0));
        (elo_of_score(s), (hi - lo) / 2.0)
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
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtVerdict {
    AcceptH0,
    AcceptH1,
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
        let ok = sprt.elo0 < sprt.elo1 && (0.0..0.5).contains(&sprt.alpha) && (0.0..0.5).contains(&sprt.beta);
        if !ok || sprt.alpha == 0.0 || sprt.beta == 0.0 {
            return Err(format!("SPRT '{s}': need elo0 < elo1 and 0 < alpha, beta < 0.5"));
        }
        Ok(sprt)
    }

    /// The acceptance bounds (lower, upper) of the LLR.
    pub fn bounds(&self) -> (f64, f64) {
        ((self.beta / (1.0 - self.alpha)).ln(), ((1.0 - self.beta) / self.alpha).ln())
    }

    /// The log-likelihood ratio of the results so far.
    pub fn llr(&self, r: &Wld) -> f64 {
        let n = r.games() as f64;
        let var = r.variance();
        if n == 0.0 || var <= 0.0 {
            return 0.0;
        }
        let (s0, s1) = (score_of_elo(self.elo0), score_of_elo(self.elo1));
        n * (s1 - s0) * (2.0 * r.score() - s0 - s1) / (2.0 * var)
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

    #[test]
    fn even_score_is_zero_elo() {
        let r = Wld { wins: 10, losses: 10, draws: 5 };
        assert!((r.score() - 0.5).abs() < 1e-12);
        assert!(r.elo().0.abs() < 1e-9);
    }

    #[test]
    fn known_values() {
        // 75% is about +191 Elo.
        let r = Wld { wins: 75, losses: 25, draws: 0 };
        assert!((r.elo().0 - 190.85).abs() < 0.1);
        assert!((score_of_elo(elo_of_score(0.3)) - 0.3).abs() < 1e-12);
        // binomial 95% half-width: 1.96 * sqrt(0.75*0.25/100) = 0.0849
        assert!((r.score_error() - 0.0849).abs() < 1e-3);
    }

    #[test]
    fn sprt_stops_on_clear_results() {
        let sprt = Sprt::parse("0,10").unwrap();
        assert_eq!(sprt.verdict(&Wld { wins: 300, losses: 100, draws: 0 }), SprtVerdict::AcceptH1);
        assert_eq!(sprt.verdict(&Wld { wins: 100, losses: 300, draws: 0 }), SprtVerdict::AcceptH0);
        assert_eq!(sprt.verdict(&Wld { wins: 3, losses: 2, draws: 0 }), SprtVerdict::Continue);
        assert!(Sprt::parse("10,0").is_err());
        assert!(Sprt::parse("0,5,0.05,0.1").is_ok());
    }
}
