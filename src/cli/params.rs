//! `--set NAME=VALUE[,NAME=VALUE…]` and `--weights FILE` (the brain and `bench`), and
//! `pbrain-quincunx params`: the search's parameters and evaluation model from the command line, and
//! the parameters' list.

use anyhow::{Context, Result, anyhow};
use quincunx::eval::model::{EvalModel, Evaluator};
use quincunx::search::{ParamError, Params, SPECS};

use crate::cli::nearest;

/// How to search: the parameters and the evaluation model's tables.
pub struct SearchChoice {
    pub params: Params,
    pub evaluator: &'static Evaluator,
}

/// Takes every `--set SETTINGS` and a `--weights FILE` out of `args`: the other arguments, and the
/// defaults with the settings applied in order and the model loaded. A bad setting or model is the
/// caller's usage error.
pub fn take_search_options(args: &[String]) -> Result<(Vec<String>, SearchChoice)> {
    let mut params = Params::DEFAULT;
    let mut evaluator = Evaluator::standard();
    let mut rest = vec![];
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if a == "--weights" {
            let path = it.next().context("--weights needs a model file")?;
            let text =
                std::fs::read_to_string(path).with_context(|| format!("--weights: cannot read {path}"))?;
            let model = EvalModel::parse(&text).map_err(|e| anyhow!("--weights {path}: {e}"))?;
            evaluator = Evaluator::leak(&model);
        } else if a == "--set" {
            let settings = it.next().context("--set needs NAME=VALUE[,NAME=VALUE…]")?;
            params.apply(settings).map_err(|e| match e {
                ParamError::Unknown { name } => {
                    let names: Vec<&str> = SPECS.iter().map(|s| s.name).collect();
                    match nearest(&name.to_ascii_lowercase(), &names) {
                        Some(n) => anyhow!(
                            "--set: unknown parameter '{name}' (did you mean {n}? 'params' lists them)"
                        ),
                        None => anyhow!("--set: {}", ParamError::Unknown { name }),
                    }
                }
                e => anyhow!("--set: {e}"),
            })?;
        } else {
            rest.push(a.clone());
        }
    }
    Ok((rest, SearchChoice { params, evaluator }))
}

/// `params`: one line a parameter, its name, default, least and greatest value, in columns.
pub fn table() -> String {
    let width = SPECS.iter().map(|s| s.name.len()).max().unwrap_or(4).max(4);
    let mut out = format!("{:width$}  {:>9}  {:>9}  {:>9}\n", "name", "default", "min", "max");
    for s in SPECS {
        out += &format!("{:width$}  {:>9}  {:>9}  {:>9}\n", s.name, s.default, s.min, s.max);
    }
    out
}
