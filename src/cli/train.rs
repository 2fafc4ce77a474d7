//! `pbrain-quincunx train`: the command line of the evaluation's fit to self-play data.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context, Result, bail};
use quincunx::eval::model::EvalModel;
use quincunx::eval::policy::Prior;
use quincunx::tools::learn::label::LABELS_HEADER;
use quincunx::tools::learn::prior_fit::{self, PriorFitConfig};
use quincunx::tools::learn::selfplay::{GameRecord, read_file};
use quincunx::tools::learn::train::{self, FitConfig, families_of, flatten, unflatten};

use crate::cli::{num, whole};

/// Fits the evaluation model to self-play data
#[derive(clap::Args)]
#[command(
    before_help = "The fit to the quiet positions of selfplay files is a logistic regression of a blend
of each game's result and the search's score on the model's values, each kept near its starting value
by a prior. Games whose number ends in 0 are held out; the log-loss of their results is printed before
and after. The files of `label` also fit the move prior to their deep best moves (a conditional logit
over each position's candidates); its held-out log-loss and how often it ranks the best move first
are printed before and after. Writes a model file that --weights loads (docs/training.md)."
)]
pub struct TrainArgs {
    /// Self-play or label files
    #[arg(value_name = "DATA", required = true)]
    data: Vec<PathBuf>,
    /// The model file to write
    #[arg(long, value_name = "MODEL", required = true)]
    out: PathBuf,
    /// The starting model (default: the embedded one)
    #[arg(long, value_name = "MODEL")]
    from: Option<PathBuf>,
    /// The result's share of the target, 0 to 1 (0: the search's score alone,
    /// which plays better than fitting the results; docs/training.md)
    #[arg(long, value_name = "L", default_value_t = 0.0, value_parser = share, verbatim_doc_comment)]
    lambda: f64,
    /// Points for which the odds change by e (default: the starting model's best fit)
    #[arg(long, value_name = "S", value_parser = positive)]
    scale: Option<f64>,
    /// The prior's width in tenths of a point around each starting value
    #[arg(long, value_name = "T", default_value_t = 300.0, value_parser = positive)]
    sigma: f64,
    /// Full passes over the data (0: none; the starting model is written as it is, and --positions
    /// gives its values on every position)
    #[arg(long, value_name = "N", default_value_t = 300, value_parser = whole::<usize, 0>)]
    epochs: usize,
    /// The step, tenths of a point
    #[arg(long, value_name = "R", default_value_t = 4.0, value_parser = positive)]
    rate: f64,
    /// Passes of the prior's fit over the labels' best moves (0 keeps it)
    #[arg(long, value_name = "N", default_value_t = 200, value_parser = whole::<usize, 0>)]
    prior_epochs: usize,
    /// Its step, hundredths
    #[arg(long, value_name = "R", default_value_t = 2.0, value_parser = positive)]
    prior_rate: f64,
    /// Its width in hundredths around each starting number
    #[arg(long, value_name = "T", default_value_t = 100.0, value_parser = positive)]
    prior_sigma: f64,
    /// Also write every quiet position (its moves, result, held out or not, the
    /// starting model's value) to FILE, to judge another evaluator on the same ones
    #[arg(long, value_name = "FILE", verbatim_doc_comment)]
    positions: Option<PathBuf>,
}

/// A real number above 0.
pub fn positive(v: &str) -> Result<f64, String> {
    match num::<f64>(v)? {
        x if x > 0.0 && x.is_finite() => Ok(x),
        _ => Err(format!("'{v}' is not a number above 0")),
    }
}

/// A share, from 0 to 1.
fn share(v: &str) -> Result<f64, String> {
    match num::<f64>(v)? {
        x if (0.0..=1.0).contains(&x) => Ok(x),
        _ => Err(format!("'{v}' is not from 0 to 1")),
    }
}

impl TrainArgs {
    /// `pbrain-quincunx train …`
    pub fn run(self) -> Result<()> {
        let a = self;
        let prior = PriorFitConfig { epochs: a.prior_epochs, rate: a.prior_rate, sigma: a.prior_sigma };
        // The command line as given, for the model's notes.
        let args: Vec<String> = std::env::args().skip(2).collect();
        let started = Instant::now();
        let start_model = match &a.from {
            Some(path) => {
                let text = std::fs::read_to_string(path)
                    .with_context(|| format!("cannot read {}", path.display()))?;
                EvalModel::parse(&text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?
            }
            None => EvalModel::embedded().clone(),
        };
        let mut games = vec![];
        let mut labels = vec![];
        for path in &a.data {
            let text =
                std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
            let (header, g) = read_file(&text).with_context(|| format!("{}", path.display()))?;
            if header.is_some_and(|h| h.starts_with(LABELS_HEADER)) {
                labels.extend(g.iter().cloned());
            }
            games.extend(g);
        }
        let g = train::gather(&games);
        let held = g.samples.iter().filter(|s| s.held_out).count();
        eprintln!(
            "{} games, {} positions: {} quiet and new ({} held out), {} repeats, {} not quiet ({:.1} s)",
            g.games,
            g.positions,
            g.samples.len(),
            held,
            g.repeats,
            g.not_quiet,
            started.elapsed().as_secs_f64()
        );
        if held == 0 || held == g.samples.len() {
            bail!("too little data: the fit needs positions both held out and not");
        }
        let start = flatten(&start_model);
        let scale = a.scale.unwrap_or_else(|| train::best_scale(&g.samples, &start));
        let before = train::result_loss(&g.samples, &start, scale, true);
        eprintln!("scale {scale:.1} points; held-out log-loss of the results before: {before:.4}");
        if let Some(path) = &a.positions {
            std::fs::write(path, positions_text(&games, &g, &start, scale))
                .with_context(|| format!("cannot write {}", path.display()))?;
        }
        let cfg = FitConfig { lambda: a.lambda, scale, sigma: a.sigma, epochs: a.epochs, rate: a.rate };
        let fitted = train::fit(&g.samples, &start, &cfg, &mut |e| {
            eprintln!("epoch {:4}: objective {:.4}, held-out log-loss {:.4}", e.epoch, e.train, e.held_out);
        });
        let after = train::result_loss(&g.samples, &fitted, scale, true);
        eprintln!("held-out log-loss of the results after: {after:.4} (before {before:.4})");
        let files: Vec<String> = a.data.iter().map(|p| p.display().to_string()).collect();
        let about = vec![
            format!("made by: pbrain-quincunx train {}", args.join(" ")),
            format!("data: {} ({} games)", files.join(" "), g.games),
            format!(
                "positions: {} quiet and new of {} ({} held out); families {}",
                g.samples.len(),
                g.positions,
                held,
                families_of(&g.samples).join(", ")
            ),
            format!(
                "fit: lambda {} scale {scale:.1} sigma {} epochs {} rate {}; held-out log-loss {before:.4} -> {after:.4}",
                a.lambda, a.sigma, a.epochs, a.rate
            ),
            format!(
                "started from: {}",
                a.from.as_ref().map_or("the embedded model".into(), |p| p.display().to_string())
            ),
        ];
        let mut model = unflatten(&fitted, about);
        model.prior = fit_prior(&labels, &start_model, &prior, &mut model.about)?;
        std::fs::write(&a.out, model.to_text())
            .with_context(|| format!("cannot write {}", a.out.display()))?;
        eprintln!("wrote {} ({:.1} s)", a.out.display(), started.elapsed().as_secs_f64());
        Ok(())
    }
}

/// The move prior fitted to the best moves of `labels` from `start`'s (kept when there are no labels
/// or no passes); the figures go to stderr and to the model's notes.
fn fit_prior(
    labels: &[GameRecord],
    start: &EvalModel,
    cfg: &PriorFitConfig,
    about: &mut Vec<String>,
) -> Result<Prior> {
    if labels.is_empty() || cfg.epochs == 0 {
        eprintln!("the move prior is kept (no label files, or --prior-epochs 0)");
        return Ok(start.prior.clone());
    }
    let (choices, read) = prior_fit::gather(labels);
    let held = choices.iter().filter(|c| c.held_out).count();
    eprintln!(
        "prior: {read} labelled positions, {} quiet with their best move a candidate ({held} held out)",
        choices.len()
    );
    if held == 0 || held == choices.len() {
        bail!("too few labels: the prior's fit needs positions both held out and not");
    }
    let start_values = prior_fit::flatten(&start.prior);
    let (loss0, first0) = prior_fit::measure(&choices, &start_values, true);
    eprintln!("prior before: held-out log-loss {loss0:.4}, best move ranked first {:.1}%", 100.0 * first0);
    let w = prior_fit::fit(&choices, &start_values, cfg, &mut |epoch, train, held_out| {
        eprintln!("prior epoch {epoch:4}: log-loss {train:.4}, held-out {held_out:.4}");
    });
    let (loss1, first1) = prior_fit::measure(&choices, &w, true);
    let line = format!(
        "prior: {} labelled positions ({held} held out), epochs {} rate {} sigma {}; held-out log-loss {loss0:.4} -> {loss1:.4}, best move first {:.1}% -> {:.1}%",
        choices.len(),
        cfg.epochs,
        cfg.rate,
        cfg.sigma,
        100.0 * first0,
        100.0 * first1
    );
    eprintln!("{line}");
    about.push(line);
    Ok(prior_fit::unflatten(&w))
}

/// The quiet positions of `g`, a line each after a header with the scale:
/// `rule=NAME line=L size=WxH held_out=0|1 result=1|0.5|0 eval=POINTS moves=h8i9…`, the result and
/// the value (under `values`) from the view of the side to move after `moves`.
fn positions_text(games: &[GameRecord], g: &train::Gathered, values: &[f64], scale: f64) -> String {
    let mut out = format!("# quincunx positions v1 scale={scale:.1}\n");
    for (s, &(at, ply)) in g.samples.iter().zip(&g.origins) {
        let game = &games[at];
        let moves: String = game.moves[..ply].iter().map(|p| p.notation()).collect();
        out += &format!(
            "rule={} line={} size={}x{} held_out={} result={} eval={:.1} moves={moves}\n",
            game.rules.name(),
            game.rules.line,
            game.width,
            game.height,
            u8::from(s.held_out),
            s.result,
            s.eval(values) / 10.0
        );
    }
    out
}
