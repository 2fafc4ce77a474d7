//! The saved tournament: the text `save FILE` writes and `--resume FILE` reads, one `key value` a line
//! under a version line; unknown keys are skipped so that older programs can still read newer files.
//! Version 2 writes the moves in pos notation (rows from 1 at the top); version 1, whose rows counted
//! from the bottom, is still read.

use anyhow::{Context, Result, bail};

use super::screen::{cell_name, parse_cell};
use super::{PlayConfig, Tournament, Who};
use crate::game::board::{MAX_SIDE, MIN_SIDE};
use crate::game::random::Rng;
use crate::game::rules::Rules;

impl Tournament {
    /// The text `save` writes.
    pub fn to_text(&self) -> String {
        let moves: Vec<String> = self.moves.iter().map(|&p| cell_name(p)).collect();
        format!(
            "quincunx-play 2\nrules {}\nsize {}\ntime {}\ndepth {}\nthreads {}\nscore {} {}\nround {}\nfirst {}\nrng {}\ntournament {}\nmoves {}\n",
            self.cfg.rules.name(),
            self.cfg.size,
            self.cfg.time_ms,
            self.cfg.depth.unwrap_or(0),
            self.cfg.threads,
            self.score[0],
            self.score[1],
            self.round,
            self.first.word(),
            self.rng.state(),
            self.cfg.tournament_rule as u8,
            moves.join(" ")
        )
    }

    /// Reads what `to_text` wrote.
    pub fn from_text(text: &str) -> Result<Tournament> {
        let mut lines = text.lines();
        let from_bottom = match lines.next().map(str::trim) {
            Some("quincunx-play 1") => true,
            Some("quincunx-play 2") => false,
            _ => bail!("not a saved Quincunx tournament"),
        };
        let mut t = Tournament::new(PlayConfig {
            rules: Rules::pente(false),
            size: 19,
            time_ms: 1000,
            depth: None,
            threads: 1,
            seed: 0,
            // Files written before the key existed were played with the tournament opening under
            // every rule.
            tournament_rule: true,
        });
        let mut moves_text = String::new();
        for line in lines {
            let (key, value) = line.split_once(' ').unwrap_or((line, ""));
            let num = || value.trim().parse::<u64>().with_context(|| format!("bad {key} '{value}'"));
            match key {
                "rules" => t.cfg.rules = Rules::named(value.trim()).context("unknown rules")?,
                "size" => t.cfg.size = num()? as usize,
                "time" => t.cfg.time_ms = num()?,
                "depth" => t.cfg.depth = Some(num()?).filter(|&d| d > 0),
                "threads" => t.cfg.threads = num()?.max(1) as usize,
                "round" => t.round = num()? as u32,
                "rng" => t.rng = Rng::new(num()?),
                "tournament" => t.cfg.tournament_rule = num()? != 0,
                "first" => {
                    t.first = match value.trim() {
                        "human" => Who::Human,
                        "engine" => Who::Engine,
                        v => bail!("bad first player '{v}'"),
                    }
                }
                "score" => {
                    let v: Vec<u32> = value.split_whitespace().filter_map(|s| s.parse().ok()).collect();
                    if v.len() != 2 {
                        bail!("bad score '{value}'");
                    }
                    t.score = [v[0], v[1]];
                }
                "moves" => moves_text = value.to_string(),
                _ => {}
            }
        }
        if !(MIN_SIDE..=MAX_SIDE).contains(&t.cfg.size) {
            bail!("size {} is not {MIN_SIDE} to {MAX_SIDE}", t.cfg.size);
        }
        for m in moves_text.split_whitespace() {
            let n = t.cfg.size;
            let mut p = parse_cell(m, n, n).with_context(|| format!("bad move '{m}'"))?;
            if from_bottom {
                p.y = (n - 1 - p.y as usize) as u8;
            }
            t.moves.push(p);
        }
        t.board()?;
        Ok(t)
    }
}
