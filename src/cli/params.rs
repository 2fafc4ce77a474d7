//! `--set NAME=VALUE[,NAME=VALUE…]` (the brain and `bench`) and `pbrain-quincunx params`: the search's
//! parameters from the command line, and their list.

use anyhow::{Context, Result, anyhow};
use quincunx::search::{ParamError, Params, SPECS};

use crate::cli::nearest;

/// Takes every `--set SETTINGS` out of `args`: the other arguments, and the defaults with the
/// settings applied in order. A bad setting is the caller's usage error.
pub fn take_set(args: &[String]) -> Result<(Vec<String>, Params)> {
    let mut params = Params::DEFAULT;
    let mut rest = vec![];
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if a == "--set" {
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
    Ok((rest, params))
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
