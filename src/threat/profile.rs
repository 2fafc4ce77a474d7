//! What a rule set means to the solvers and to the search above them, decided once from its `Rules`
//! ([`Profile::of`]) and read wherever a rule changes what is tried, instead of each place testing
//! the variant itself.

use crate::eval::position::Position;
use crate::game::rules::{Rules, Variant};

/// The rule decisions of the threat solvers and the search (see the module's doc).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Profile {
    /// Stones are captured (Pente). The solvers know no captures: there is no root VCF or VCT, no
    /// four-three or double-three shortcut, and a five point may be answered by a capture.
    pub captures: bool,
    /// A five point can be stopped away from it (caro): a stone just past the far end of the five's run
    /// closes it at both ends (see [`super::stops_off_the_point`]).
    pub stops_off_the_point: bool,
    /// Moves are ordered by the fitted prior (`policy`): everywhere but Pente, whose captures the fit
    /// never saw and which keeps the weight matrix. The move counts and reductions that pay with the
    /// prior's order never paid with the weight matrix's, so they follow this too.
    pub prior_ordered: bool,
    /// An open three of the opponent's at the search's horizon is searched past it. Not under renju,
    /// where black's four points may be fouls and the rule lost ground, nor with captures (the horizon
    /// there is the evaluation).
    pub threes_past_horizon: bool,
}

impl Profile {
    /// The profile of `rules`.
    pub const fn of(rules: &Rules) -> Profile {
        let captures = matches!(rules.variant, Variant::Pente { .. });
        Profile {
            captures,
            stops_off_the_point: matches!(rules.variant, Variant::Caro { .. }),
            prior_ordered: !captures,
            threes_past_horizon: !captures && !matches!(rules.variant, Variant::Renju),
        }
    }

    /// The profile of the rules `pos` is played under.
    #[inline]
    pub fn of_position(pos: &Position) -> Profile {
        Profile::of(&pos.patterns().rules)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::rules::GAME_NAMES;

    #[test]
    fn captures_are_pentes_alone_and_the_prior_orders_every_other_game() {
        for name in GAME_NAMES {
            let rules = Rules::named(name).expect("a game");
            let p = Profile::of(&rules);
            assert_eq!(p.captures, rules.capture_rule().is_some(), "{name}");
            assert_eq!(p.prior_ordered, !p.captures, "{name}");
            assert_eq!(p.stops_off_the_point, name.starts_with("caro"), "{name}");
            assert_eq!(p.threes_past_horizon, !p.captures && *name != "renju", "{name}");
        }
    }
}
