//! `--set NAME=VALUE[,NAME=VALUE…]` and `--weights FILE` (the brain and `bench`), and
//! `pbrain-quincunx params`: the search's parameters and evaluation model from the command line, and
//! the parameters' list.

use anyhow::Result;
use quincunx::eval::model::{EvalModel, Evaluator};
use quincunx::search::{ParamError, Params, SPECS};

/// How to search: the parameters and the evaluation model's tables.
pub struct SearchChoice {
    pub params: Params,
    pub evaluator: &'static Evaluator,
}

/// The options that change what the search searches with (the brain and `bench`).
#[derive(clap::Args)]
pub struct SearchArgs {
    /// Search with other values of its parameters ('params' lists them);
    /// NAME=VALUE[,NAME=VALUE...], applied in order when repeated
    #[arg(long = "set", value_name = "NAME=VALUE", value_parser = setting, verbatim_doc_comment)]
    set: Vec<String>,
    /// Evaluate with the model in FILE (as `train` writes it) instead of the embedded one
    #[arg(long, value_name = "FILE", value_parser = model)]
    weights: Option<Model>,
}

impl SearchArgs {
    /// The defaults with the settings applied in order, and the model.
    pub fn choice(&self) -> Result<SearchChoice> {
        let mut params = Params::DEFAULT;
        for settings in &self.set {
            params.apply(settings).map_err(|e| anyhow::anyhow!("--set: {e}"))?;
        }
        let evaluator = self.weights.as_ref().map_or_else(Evaluator::standard, |m| m.0);
        Ok(SearchChoice { params, evaluator })
    }
}

/// `--set`: settings that apply (checked here, applied in order by [`SearchArgs::choice`]).
fn setting(v: &str) -> Result<String, String> {
    match Params::parse(v) {
        Ok(_) => Ok(v.to_string()),
        Err(ParamError::Unknown { name }) => Err(match nearest_param(&name) {
            Some(n) => format!("unknown parameter '{name}' (did you mean {n}? 'params' lists them)"),
            None => format!("{}", ParamError::Unknown { name }),
        }),
        Err(e) => Err(e.to_string()),
    }
}

/// `--weights FILE`: the model read and its tables built, once for the whole run.
#[derive(Clone)]
struct Model(&'static Evaluator);

fn model(path: &str) -> Result<Model, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    let model = EvalModel::parse(&text).map_err(|e| format!("{path}: {e}"))?;
    Ok(Model(Evaluator::leak(&model)))
}

/// The parameter whose name is nearest to `name`, if a slip of the keyboard away (at most a third of
/// its letters, and 3).
pub fn nearest_param(name: &str) -> Option<&'static str> {
    let name = name.to_ascii_lowercase();
    let limit = (name.chars().count() / 3).clamp(1, 3);
    SPECS
        .iter()
        .map(|s| (strsim::levenshtein(&name, s.name), s.name))
        .filter(|&(d, _)| d <= limit)
        .min()
        .map(|(_, n)| n)
}

/// Lists the search's parameters: name, default, least and greatest value
#[derive(clap::Args)]
pub struct ParamsArgs {}

impl ParamsArgs {
    pub fn run(self) -> Result<()> {
        let width = SPECS.iter().map(|s| s.name.len()).max().unwrap_or(4).max(4);
        let mut out = format!("{:width$}  {:>9}  {:>9}  {:>9}\n", "name", "default", "min", "max");
        for s in SPECS {
            out += &format!("{:width$}  {:>9}  {:>9}  {:>9}\n", s.name, s.default, s.min, s.max);
        }
        out!("{out}")?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_slip_of_the_keyboard_finds_the_parameter_meant() {
        assert_eq!(nearest_param("futility_per_pli"), Some("futility_per_ply"));
        assert_eq!(nearest_param("RAZOR_MARGN"), Some("razor_margin"));
        assert_eq!(nearest_param("colour"), None);
    }
}
