//! Carries out a parsed request: each command reads its input, calls the library, and prints.

use crate::batch::{merge, merge_onto, read_jsonl, Batch, BatchOutcome, JsonlHeader};
use crate::card::format_cards;
use crate::cli::{read_text, Chosen, CompareRequest, Request, StatsRequest, SummaryFile};
use crate::compare::{read_verdicts, Comparison, Report, SolverVerdicts};
use crate::deal::DealId;
use crate::export::{
    check_writable, format_bytes, format_seconds, write_atomic, Exporter, Json, Markdown, Table,
};
use crate::game::OptionKind;
use crate::games;
use crate::solver::{Budget, Order, Verdict};
use crate::stats::{PassTally, Summary};
use crate::strategy::{Ending, StrategyKind};
use serde_json::json;
use std::fs;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

pub fn run(request: Request) -> Result<ExitCode, String> {
    match request {
        Request::Games => games_list(),
        Request::Deal { game, deal } => show_deal(&game, &deal),
        Request::Solve {
            game,
            deal,
            json,
            order,
            budget,
        } => solve(&game, &deal, json, order, budget),
        Request::Verify {
            game,
            deal,
            solution,
        } => verify(&game, deal, &solution),
        Request::Perft { game, deal, depth } => perft(&game, &deal, depth),
        Request::Stats(request) => stats(request),
        Request::Play {
            game,
            deal,
            strategy,
            json,
        } => play(&game, &deal, strategy, json),
        Request::Compare(request) => compare(request),
        Request::Merge { files, json, onto } => merge_files(&files, json, onto),
        Request::Report { files } => report(&files),
    }
}

fn games_list() -> Result<ExitCode, String> {
    for game in games::all() {
        println!("{:<12} {}", game.name(), game.summary());
        for option in game.options() {
            let form = match option.kind {
                OptionKind::Flag => format!("--{}", option.name),
                OptionKind::Number { min, max, default } => {
                    format!("--{} N ({min}..{max}, default {default})", option.name)
                }
            };
            println!("{:<12}   {form:<38} {}", "", option.help);
        }
        let search = format!("--search {}", game.search().name());
        println!(
            "{:<12}   {search:<38} the search order unless another is named",
            ""
        );
        // The beams by the game's other heuristics, named from the second to the last.
        let others: Vec<String> = <Order as clap::ValueEnum>::value_variants()
            .iter()
            .filter(|order| {
                order
                    .beam_heuristic()
                    .is_some_and(|n| (2..=game.heuristics()).contains(&n))
            })
            .map(|order| order.name())
            .collect();
        if let (Some(first), Some(last)) = (others.first(), others.last()) {
            let searches = match others.len() {
                1 => format!("--search {first}"),
                _ => format!("--search {first} (to {last})"),
            };
            println!(
                "{:<12}   {searches:<38} the beam by the game's other heuristics (other wins)",
                ""
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Prints a deal as a deal file: the cards in dealing order, the title and the layout as
/// `#` comments, so the output can be given back to `--deal` as it stands.
fn show_deal(game: &Chosen, deal: &DealId) -> Result<ExitCode, String> {
    let cards = deal.cards(game.entry.packs())?;
    let layout = game.entry.layout(&game.options, &cards)?;
    println!("# {} ({}), {deal}", game.entry.name(), game.variant());
    println!("{}", format_cards(&cards));
    println!("#");
    for line in layout.lines() {
        println!("# {line}");
    }
    Ok(ExitCode::SUCCESS)
}

fn solve(
    game: &Chosen,
    deal: &DealId,
    json: bool,
    order: Order,
    budget: Budget,
) -> Result<ExitCode, String> {
    let cards = deal.cards(game.entry.packs())?;
    let report = game.entry.solve(&game.options, &cards, order, budget)?;
    if json {
        let mut value = json!({
            "game": game.entry.name(),
            "variant": game.variant(),
            "deal": deal,
            "verdict": report.verdict,
            "reason": report.exhausted.map(|e| e.describe()),
            "nodes": report.nodes,
            "formulas": report.formulas,
            "seconds": report.seconds,
            "table_entries": report.table_entries,
            "peak_bytes": report.peak_bytes,
            "moves": report.moves,
        });
        if let Some(variant) = &report.lost_under {
            value["lost_under"] = json!(variant);
        }
        println!(
            "{}",
            serde_json::to_string_pretty(&value).expect("serialises")
        );
        return Ok(ExitCode::SUCCESS);
    }
    let headline = match report.verdict {
        Verdict::Won => format!("won in {} moves", report.moves.len()),
        Verdict::Lost => match &report.lost_under {
            None if report.formulas > 0 => {
                "lost: no sequence of moves wins (every case of the game's formula is \
                 unsatisfiable)"
                    .into()
            }
            None => "lost: no sequence of moves wins (every reachable position searched)".into(),
            Some(variant) => format!(
                "lost: no sequence of moves wins under {variant}, which can play every line this \
                 variant plays (every position reachable there searched)"
            ),
        },
        Verdict::Unknown => format!(
            "unknown: {}",
            report.exhausted.map_or("budget spent", |e| e.describe())
        ),
    };
    // The headline and figures are `#` comments, so the whole output is a solution file that
    // `verify` reads as it stands.
    println!(
        "# {} ({}), {deal}: {headline}",
        game.entry.name(),
        game.variant()
    );
    if order == Order::Sat {
        println!(
            "# {} formulas put to the SAT solver in {}; {} of clauses at the largest",
            report.formulas,
            format_seconds(report.seconds),
            format_bytes(report.peak_bytes)
        );
    } else {
        println!(
            "# {} positions in {} ({:.0} per second); table {} entries, {} at its largest",
            report.nodes,
            format_seconds(report.seconds),
            report.nodes as f64 / report.seconds.max(1e-9),
            report.table_entries,
            format_bytes(report.peak_bytes)
        );
        if report.formulas > 0 {
            println!("# then {} formulas put to the SAT solver", report.formulas);
        }
    }
    for (i, mv) in report.moves.iter().enumerate() {
        println!("{:>4}. {mv}", i + 1);
    }
    Ok(ExitCode::SUCCESS)
}

/// Reads a move list: `solve --json` output, or text with one move per line (blank lines,
/// `#` comments and a leading `12.` numbering, as `solve` prints, are ignored).
fn read_solution(path: &Path) -> Result<(Vec<String>, Option<serde_json::Value>), String> {
    let text = read_text(path)?;
    if text.trim_start().starts_with('{') {
        let value: serde_json::Value = serde_json::from_str(&text)
            .map_err(|e| format!("{} is not valid JSON: {e}", path.display()))?;
        let moves = value["moves"]
            .as_array()
            .and_then(|moves| {
                moves
                    .iter()
                    .map(|m| m.as_str().map(String::from))
                    .collect::<Option<Vec<_>>>()
            })
            .ok_or_else(|| format!("{} has no \"moves\" list of strings", path.display()))?;
        return Ok((moves, Some(value)));
    }
    let moves = text
        .lines()
        .map(|line| line.split('#').next().unwrap_or("").trim())
        .filter(|line| !line.is_empty())
        .map(|line| match line.split_once(". ") {
            Some((number, mv)) if number.trim().chars().all(|c| c.is_ascii_digit()) => {
                mv.trim().to_string()
            }
            _ => line.to_string(),
        })
        .collect();
    Ok((moves, None))
}

fn verify(game: &Chosen, deal: Option<DealId>, solution: &Path) -> Result<ExitCode, String> {
    let (moves, json) = read_solution(solution)?;
    if let Some(json) = &json {
        let (found_game, found_variant) = (json["game"].as_str(), json["variant"].as_str());
        if found_game.is_some_and(|g| g != game.entry.name())
            || found_variant.is_some_and(|v| v != game.variant())
        {
            return Err(format!(
                "{} is a solution for {} ({}), not {} ({})",
                solution.display(),
                found_game.unwrap_or("?"),
                found_variant.unwrap_or("?"),
                game.entry.name(),
                game.variant()
            ));
        }
    }
    let deal = match (deal, json.as_ref().map(|j| &j["deal"])) {
        (Some(deal), _) => deal,
        (None, Some(value)) if !value.is_null() => serde_json::from_value(value.clone())
            .map_err(|e| format!("the \"deal\" in {} is not a deal: {e}", solution.display()))?,
        _ => {
            return Err(
                "name the deal (--seed, --ms or --deal): the solution file does not".to_string(),
            )
        }
    };
    let cards = deal.cards(game.entry.packs())?;
    let replay = game.entry.replay(&game.options, &cards, &moves)?;
    println!(
        "{} ({}), {deal}: {replay}",
        game.entry.name(),
        game.variant()
    );
    Ok(if replay.is_won() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

fn perft(game: &Chosen, deal: &DealId, depth: u32) -> Result<ExitCode, String> {
    let cards = deal.cards(game.entry.packs())?;
    println!("{} ({}), {deal}", game.entry.name(), game.variant());
    for d in 1..=depth {
        println!("perft {d}: {}", game.entry.perft(&game.options, &cards, d)?);
    }
    Ok(ExitCode::SUCCESS)
}

fn stats(request: StatsRequest) -> Result<ExitCode, String> {
    let json = summary_destination(request.json)?;
    let (k, n) = request.shard;
    let mut deals: Vec<DealId> = request.range.shard(k, n).collect();
    if deals.is_empty() {
        return Err(format!("shard {k}/{n} of the range holds no deal"));
    }
    let base = match &request.unknown_in {
        Some(path) => {
            let base = read_summary(path)?;
            let variant = request.game.variant();
            if (base.game.as_str(), base.variant.as_str()) != (request.game.entry.name(), &variant)
            {
                return Err(format!(
                    "{} summarises {} ({}), not {} ({})",
                    path.display(),
                    base.game,
                    base.variant,
                    request.game.entry.name(),
                    variant
                ));
            }
            deals = base
                .unknown_among(deals)
                .map_err(|e| format!("{e} that {} summarises", path.display()))?;
            if deals.is_empty() {
                return Err(format!(
                    "{} holds no unknown deal among those asked for: nothing to retry",
                    path.display()
                ));
            }
            Some(base)
        }
        None => None,
    };
    let batch = Batch {
        game: request.game.entry,
        options: &request.game.options,
        deals,
        order: request.order,
        budget: request.budget,
        jsonl: request.jsonl.as_deref(),
        resume: request.resume,
        retry_unknown: request.retry_unknown,
        progress: std::io::stderr().is_terminal(),
    };
    let BatchOutcome {
        records,
        searched,
        superseded,
    } = worker_pool(request.threads)?.install(|| batch.run())?;
    let summary = match base {
        // The deals retried lie scattered among the base's: the summary is the base with their
        // records entered, as `merge --onto` enters them.
        Some(base) => {
            let count = |v: Verdict| records.iter().filter(|r| r.verdict == v).count();
            println!(
                "{} deals the summary held unknown, {searched} of them searched now (the others \
                 settled by the --jsonl file's records): {} won, {} lost, {} unknown",
                records.len(),
                count(Verdict::Won),
                count(Verdict::Lost),
                count(Verdict::Unknown)
            );
            base.amend(&records)?
        }
        None => Summary::from_records(
            request.game.entry.name(),
            &request.game.variant(),
            &records,
            n,
        ),
    }
    .with_superseded(superseded);
    let written = json.clone();
    publish(&summary, json)?;
    if let Some(path) = written {
        eprintln!("summary written to {}", path.display());
    }
    Ok(ExitCode::SUCCESS)
}

/// Where `stats` writes its summary, checked before any work: a default file that exists is
/// left alone (and the user told so), its `results/` folder made where it is missing.
fn summary_destination(file: SummaryFile) -> Result<Option<PathBuf>, String> {
    let path = match file {
        SummaryFile::Named(path) => path,
        SummaryFile::Default(path) if path.exists() => {
            eprintln!(
                "note: {} exists and is left as it is; --json FILE writes this run's summary",
                path.display()
            );
            return Ok(None);
        }
        SummaryFile::Default(path) => {
            if let Some(dir) = path.parent() {
                fs::create_dir_all(dir).map_err(|e| {
                    format!(
                        "cannot create {} for the summary: {e} (name a file with --json FILE, \
                         or write none with --no-json)",
                        dir.display()
                    )
                })?;
            }
            path
        }
        SummaryFile::None => return Ok(None),
    };
    check_writable(&path)?;
    Ok(Some(path))
}

fn play(game: &Chosen, deal: &DealId, kind: StrategyKind, json: bool) -> Result<ExitCode, String> {
    let cards = deal.cards(game.entry.packs())?;
    let played = game
        .entry
        .play(&game.options, &cards, kind, deal.number().unwrap_or(0))?;
    if json {
        let value = json!({
            "game": game.entry.name(),
            "variant": game.variant(),
            "deal": deal,
            "strategy": kind,
            "verdict": if played.ending == Ending::Won { "won" } else { "lost" },
            "ending": played.ending,
            "moves": played.moves,
        });
        println!(
            "{}",
            serde_json::to_string_pretty(&value).expect("serialises")
        );
        return Ok(ExitCode::SUCCESS);
    }
    // As with `solve`, the headline is a comment: the output is a move list `verify` reads.
    println!(
        "# {} ({}), {deal}, {}: {} after {} moves",
        game.entry.name(),
        game.variant(),
        kind.name(),
        played.ending.describe(),
        played.moves.len()
    );
    for (i, mv) in played.moves.iter().enumerate() {
        println!("{:>4}. {mv}", i + 1);
    }
    Ok(ExitCode::SUCCESS)
}

fn compare(request: CompareRequest) -> Result<ExitCode, String> {
    let header = JsonlHeader {
        game: request.game.entry.name().to_string(),
        variant: request.game.variant(),
    };
    // Read what the comparison will be entered into before any work, so that a file that is
    // not a list of comparisons is refused now, not at the end.
    let mut entered: Vec<Report> = match &request.json {
        Some(path) if path.exists() => serde_json::from_str(&read_text(path)?).map_err(|e| {
            format!(
                "{} is not a list of comparisons ({e}): name another file",
                path.display()
            )
        })?,
        Some(path) => {
            check_writable(path)?;
            Vec::new()
        }
        None => Vec::new(),
    };
    let solver = match &request.solver_results {
        Some(path) => SolverVerdicts::Known(read_verdicts(path, &header)?),
        None => SolverVerdicts::Solve {
            order: request.order,
            budget: request.budget,
        },
    };
    let comparison = Comparison {
        game: request.game.entry,
        options: &request.game.options,
        deals: request.range.shard(1, 1).collect(),
        strategies: request.strategies,
        solver,
        progress: std::io::stderr().is_terminal(),
    };
    let report = worker_pool(request.threads)?.install(|| comparison.run())?;
    print!("{}", Table.render(std::slice::from_ref(&report)));
    if let Some(path) = &request.json {
        // A game's new comparison takes the place of its old one, so the file keeps its order.
        let same =
            |r: &Report| (r.game.as_str(), r.variant.as_str()) == (&header.game, &header.variant);
        match entered.iter().position(same) {
            Some(i) => entered[i] = report,
            None => entered.push(report),
        }
        write_atomic(path, &Json.render(&entered))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The threads a batch runs on: one per core unless the user said how many.
fn worker_pool(threads: Option<usize>) -> Result<rayon::ThreadPool, String> {
    let mut pool = rayon::ThreadPoolBuilder::new();
    if let Some(threads) = threads {
        pool = pool.num_threads(threads);
    }
    pool.build()
        .map_err(|e| format!("cannot start worker threads: {e}"))
}

fn publish(summary: &Summary, json: Option<PathBuf>) -> Result<ExitCode, String> {
    print!("{}", Table.render(std::slice::from_ref(summary)));
    if let Some(path) = json {
        write_atomic(&path, &Json.render(std::slice::from_ref(summary)))?;
    }
    Ok(ExitCode::SUCCESS)
}

fn merge_files(
    files: &[PathBuf],
    json: Option<PathBuf>,
    onto: Option<PathBuf>,
) -> Result<ExitCode, String> {
    if let Some(path) = &json {
        check_writable(path)?;
    }
    // A summary among the files is entered onto the base; the rest are records.
    let mut records = Vec::new();
    let mut summaries = Vec::new();
    for path in files {
        match serde_json::from_str::<Summary>(&read_text(path)?) {
            Ok(summary) => summaries.push(summary),
            Err(_) => records.push(path.clone()),
        }
        if onto.is_none() && !summaries.is_empty() {
            return Err(format!(
                "{} is a stats --json summary: a summary can only be entered onto another one \
                 whose deals it shares (--onto SUMMARY)",
                path.display()
            ));
        }
    }
    let summary = match onto {
        Some(base) => merge_onto(&read_summary(&base)?, &records, &summaries)?,
        None => merge(&records)?,
    };
    let written = json.clone();
    publish(&summary, json)?;
    if let Some(path) = written {
        eprintln!("summary written to {}", path.display());
    }
    Ok(ExitCode::SUCCESS)
}

/// Reads a `stats --json` summary (the results/ form).
fn read_summary(path: &Path) -> Result<Summary, String> {
    serde_json::from_str(&read_text(path)?).map_err(|e| {
        format!(
            "{} is not a stats --json summary ({e}): name a results/ file",
            path.display()
        )
    })
}

/// Prints the README's tables: one of results summaries, one of strategy comparisons; and for
/// a `--jsonl` file, its passes.
fn report(files: &[PathBuf]) -> Result<ExitCode, String> {
    let mut summaries = Vec::new();
    let mut comparisons: Vec<Report> = Vec::new();
    let mut runs = Vec::new();
    for path in files {
        let text = read_text(path)?;
        if let Ok(summary) = serde_json::from_str::<Summary>(&text) {
            summaries.push(summary);
        } else if let Ok(reports) = serde_json::from_str::<Vec<Report>>(&text) {
            comparisons.extend(reports);
        } else if let Ok((header, records, _)) = read_jsonl(path) {
            runs.push((path, header, PassTally::from_records(&records)));
        } else {
            return Err(format!(
                "{} is neither a results summary, a list of strategy comparisons, nor a --jsonl file of deals",
                path.display()
            ));
        }
    }
    for (path, header, passes) in &runs {
        println!("{}: {} ({})\n", path.display(), header.game, header.variant);
        print!("{}", Markdown.render(passes));
        println!();
    }
    if !summaries.is_empty() {
        print!("{}", Markdown.render(&summaries));
    }
    if !comparisons.is_empty() {
        if !summaries.is_empty() {
            println!();
        }
        print!("{}", Markdown.render(&comparisons));
    }
    Ok(ExitCode::SUCCESS)
}
