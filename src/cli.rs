//! Command-line parsing, apart from the work. Each command that acts on a game takes the game
//! as a subcommand, built from the game list, so each game's variant options appear as its own
//! flags (`patience solve freecell --cells 2 --ms 5`) and nothing here names a game.

use crate::batch::{parse_shard, DealRange};
use crate::card::{format_cards, parse_deal};
use crate::deal::DealId;
use crate::game::{OptionKind, OptionValues};
use crate::games::{self, GameEntry};
use crate::solver::{Budget, Order, FIRST_BEAM_WIDTH};
use crate::strategy::StrategyKind;
use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::{value_parser, Arg, ArgAction, ArgMatches, Args, Command, FromArgMatches};
use std::io::Read;
use std::path::{Path, PathBuf};

/// What the user asked for, checked and ready to run.
pub enum Request {
    Games,
    Deal {
        game: Chosen,
        deal: DealId,
    },
    Solve {
        game: Chosen,
        deal: DealId,
        json: bool,
        order: Order,
        budget: Budget,
    },
    Verify {
        game: Chosen,
        deal: Option<DealId>,
        solution: PathBuf,
    },
    Perft {
        game: Chosen,
        deal: DealId,
        depth: u32,
    },
    Stats(StatsRequest),
    Play {
        game: Chosen,
        deal: DealId,
        strategy: StrategyKind,
        json: bool,
    },
    Compare(CompareRequest),
    Merge {
        files: Vec<PathBuf>,
        json: Option<PathBuf>,
        onto: Option<PathBuf>,
    },
    Report {
        files: Vec<PathBuf>,
    },
}

/// A game with its variant options set.
pub struct Chosen {
    pub entry: &'static dyn GameEntry,
    pub options: OptionValues,
}

impl Chosen {
    pub fn variant(&self) -> String {
        self.options.variant_name(self.entry.options())
    }
}

/// Where `stats` writes its summary.
pub enum SummaryFile {
    /// `--json FILE`: written, over an existing file too.
    Named(PathBuf),
    /// No `--json`: the run's own name under `results/`, written only where no file is yet.
    Default(PathBuf),
    /// `--no-json`.
    None,
}

impl SummaryFile {
    /// `results/GAME[-VARIANT]-seedsA-B[-shardKofN].json`: the variant as its options, `=` and
    /// `,` turned into `-` (`results/freecell-cells-2-ms1-32000.json`).
    fn default_for(game: &Chosen, range: &DealRange, (k, n): (u64, u64)) -> SummaryFile {
        let mut name = game.entry.name().to_string();
        let variant = game.variant();
        if variant != "standard" {
            name = format!("{name}-{}", variant.replace(['=', ','], "-"));
        }
        let kind = if range.microsoft { "ms" } else { "seeds" };
        name = format!("{name}-{kind}{}-{}", range.first, range.last);
        if n > 1 {
            name = format!("{name}-shard{k}of{n}");
        }
        SummaryFile::Default(PathBuf::from("results").join(format!("{name}.json")))
    }
}

pub struct StatsRequest {
    pub game: Chosen,
    pub range: DealRange,
    pub shard: (u64, u64),
    pub threads: Option<usize>,
    pub json: SummaryFile,
    pub jsonl: Option<PathBuf>,
    pub resume: bool,
    pub retry_unknown: bool,
    pub unknown_in: Option<PathBuf>,
    pub order: Order,
    pub budget: Budget,
}

pub struct CompareRequest {
    pub game: Chosen,
    pub range: DealRange,
    pub strategies: Vec<StrategyKind>,
    pub solver_results: Option<PathBuf>,
    pub threads: Option<usize>,
    pub json: Option<PathBuf>,
    pub order: Order,
    pub budget: Budget,
}

/// A deal named on the command line.
#[derive(Args)]
#[group(id = "deal_source", required = true, multiple = false)]
struct DealArgs {
    /// Shuffle with this seed (ChaCha8 and Fisher–Yates, as the README states)
    #[arg(long, value_name = "N")]
    seed: Option<u64>,
    /// Microsoft FreeCell deal number N (1 to 2^31 - 1)
    #[arg(long, value_name = "N")]
    ms: Option<u64>,
    /// Read the cards in dealing order from FILE ('-' for standard input)
    #[arg(long = "deal", value_name = "FILE")]
    file: Option<PathBuf>,
}

#[derive(Args)]
struct BudgetArgs {
    /// The order of the search (all but narrower and wider are exhaustive; they differ in how
    /// soon they find wins); by default the game's own, which `patience games` lists
    #[arg(long, value_enum, value_name = "ORDER")]
    search: Option<Order>,
    /// Stop with "unknown" once this many positions have entered the search's table
    #[arg(long, value_name = "N")]
    max_nodes: Option<u64>,
    /// Stop with "unknown" before the search holds more memory than this (e.g. 512M, 4G); per deal
    #[arg(long, value_name = "SIZE", default_value = "4G", value_parser = parse_size)]
    max_memory: u64,
    /// The beam search's first width (default 8), doubled after each run without a win. A
    /// retry may start where an earlier pass ran out (its narrower runs would only repeat
    /// that pass), or at a width off the earlier doubling (11, say): runs of other widths find
    /// other wins, and `--retry-unknown` counts such a beam as another search
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    beam_width: Option<u32>,
    /// Break ties between equally scored positions of the beam by a hash of N and the order
    /// they were found, not by that order alone; with `--search rollout` or
    /// `adaptive-rollout`, seed the rollouts' random draws with N (default 0). Each salt is
    /// another search, finding other wins, and `--retry-unknown` counts it as one
    #[arg(long, value_name = "N")]
    beam_salt: Option<u64>,
    /// Widen the beam no further than N: a run of width N that finds no win ends the search
    /// "unknown", the rest of the node budget unspent (a run twice as wide needs about twice
    /// the positions, so a pass meant as one run of a width costs that run only); with
    /// `--beam-width N`, exactly one run
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    max_beam_width: Option<u32>,
    /// With `--search rollout` (or `adaptive-rollout`), the nesting: each move judged by walks
    /// of level N - 1 after it (or, adapted, each level's policy learning from a hundred
    /// walks of the level below), level 0 a plain rollout (default 2; each level costs about
    /// a hundred times the one below per walk)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=4))]
    rollout_level: Option<u32>,
}

/// The names of the games `has` picks, for a message that says where an option applies.
fn names_of_games(has: impl Fn(&dyn games::GameEntry) -> bool) -> String {
    let names: Vec<&str> = games::all()
        .into_iter()
        .filter(|&entry| has(entry))
        .map(|entry| entry.name())
        .collect();
    names.join(", ")
}

impl BudgetArgs {
    /// The order named, or else the game's own; a first beam width only with the beam.
    fn order(&self, chosen: &Chosen) -> Result<Order, String> {
        let game = chosen.entry;
        let order = self.search.unwrap_or_else(|| game.search());
        if self.rollout_level.is_some() && !order.rolls_out() {
            return Err(format!(
                "--rollout-level applies to the nested rollouts only, and {} searches {} here \
                 (add --search rollout or --search adaptive-rollout)",
                game.name(),
                order.name()
            ));
        }
        let beam_options = [
            ("--beam-width", self.beam_width.is_some()),
            (
                "--beam-salt",
                self.beam_salt.is_some() && !order.rolls_out(),
            ),
            ("--max-beam-width", self.max_beam_width.is_some()),
        ];
        for (option, given) in beam_options {
            if given && order.beam_heuristic().is_none() {
                return Err(format!(
                    "{option} applies to the beam search only, and {} searches {} here \
                     (add --search beam)",
                    game.name(),
                    order.name()
                ));
            }
        }
        let first_width = self.beam_width.unwrap_or(FIRST_BEAM_WIDTH as u32);
        if let Some(widest) = self.max_beam_width.filter(|&widest| widest < first_width) {
            return Err(format!(
                "--max-beam-width {widest} is narrower than the beam's first width, {first_width} \
                 (give --beam-width {widest} for one run of that width)"
            ));
        }
        if order == Order::Layered && !game.layered() {
            return Err(format!(
                "the layered search needs a game whose play goes one way in layers, and {} has \
                 none yet (games with layers: {})",
                game.name(),
                names_of_games(|entry| entry.layered())
            ));
        }
        if order == Order::Sat && !game.formulas() {
            return Err(format!(
                "the SAT search needs a game stated as formulas, and {} is not yet (games \
                 with formulas: {})",
                game.name(),
                names_of_games(|entry| entry.formulas())
            ));
        }
        if let Some(wanted) = order.beam_heuristic().filter(|&n| n > game.heuristics()) {
            // A game has at least one heuristic, and no beam asks for more than five.
            let count = [
                "one heuristic",
                "two heuristics",
                "three heuristics",
                "four heuristics",
            ][game.heuristics() - 1];
            let nth = ["a second", "a third", "a fourth", "a fifth"][wanted - 2];
            return Err(format!(
                "{} has {count} only, so --search {} would repeat a beam it has \
                 (games with {nth}: {})",
                game.name(),
                order.name(),
                names_of_games(|entry| entry.heuristics() >= wanted)
            ));
        }
        if order == Order::Narrower && game.narrower(&chosen.options).is_empty() {
            return Err(format!(
                "the narrower search replays wins of variants with fewer moves, and {} ({}) has \
                 none: it needs an option that only adds moves (see `patience games`)",
                game.name(),
                chosen.options.variant_name(game.options())
            ));
        }
        if order == Order::Wider && game.wider(&chosen.options).is_empty() {
            return Err(format!(
                "the wider search proves losses under variants with more moves, and {} ({}) \
                 has none: it needs an option that can only take moves away (see `patience \
                 games`)",
                game.name(),
                chosen.options.variant_name(game.options())
            ));
        }
        Ok(order)
    }

    fn budget(&self) -> Budget {
        Budget {
            max_nodes: self.max_nodes,
            max_memory: Some(self.max_memory),
            first_beam_width: self.beam_width.map(|width| width as usize),
            beam_salt: self.beam_salt,
            max_beam_width: self.max_beam_width.map(|width| width as usize),
            rollout_level: self.rollout_level,
        }
    }
}

#[derive(Args)]
struct SolveArgs {
    #[command(flatten)]
    deal: DealArgs,
    #[command(flatten)]
    budget: BudgetArgs,
    /// Print one JSON object instead of text
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
struct VerifyArgs {
    #[command(flatten)]
    deal: DealArgs,
    /// The move list: the JSON `solve --json` prints, or text with one move per line
    #[arg(long, value_name = "FILE")]
    solution: PathBuf,
}

#[derive(Args)]
struct PerftArgs {
    #[command(flatten)]
    deal: DealArgs,
    /// Count move paths of every length up to this
    #[arg(long, value_name = "D")]
    depth: u32,
}

#[derive(Args)]
#[group(id = "range", required = true, multiple = false)]
struct RangeArgs {
    /// Seeds A..B, both included
    #[arg(long, value_name = "A..B")]
    seeds: Option<String>,
    /// Microsoft deals A..B, both included
    #[arg(long = "ms", value_name = "A..B")]
    ms: Option<String>,
}

#[derive(Args)]
struct StatsArgs {
    #[command(flatten)]
    range: RangeArgs,
    #[command(flatten)]
    budget: BudgetArgs,
    /// Take only shard K of N: every N-th deal, starting with the K-th
    #[arg(long, value_name = "K/N")]
    shard: Option<String>,
    /// Worker threads (default: one per core)
    #[arg(long, value_name = "N", value_parser = value_parser!(u32).range(1..=1024))]
    threads: Option<u32>,
    /// Write the summary (the results/ form) to FILE, atomically [default:
    /// results/GAME[-VARIANT]-seedsA-B.json, unless that file exists]
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// Write no summary file (the table only)
    #[arg(long, conflicts_with = "json")]
    no_json: bool,
    /// Append one line per finished deal to FILE
    #[arg(long, value_name = "FILE")]
    jsonl: Option<PathBuf>,
    /// Skip the deals the --jsonl file already holds
    #[arg(long, requires = "jsonl")]
    resume: bool,
    /// With --resume: solve again the deals the file holds as unknown (give a larger budget)
    #[arg(long, requires = "resume")]
    retry_unknown: bool,
    /// Only the deals of the range that FILE, a stats --json summary (results/), holds as
    /// unknown: retry passes over a summary whose --jsonl records are gone; `merge --onto FILE`
    /// enters their records onto it
    #[arg(long, value_name = "FILE")]
    unknown_in: Option<PathBuf>,
}

#[derive(Args)]
struct PlayArgs {
    #[command(flatten)]
    deal: DealArgs,
    /// How to play: random, greedy or book
    #[arg(long, value_name = "NAME", value_parser = StrategyKind::parse)]
    strategy: StrategyKind,
    /// Print one JSON object instead of text
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
struct CompareArgs {
    #[command(flatten)]
    range: RangeArgs,
    #[command(flatten)]
    budget: BudgetArgs,
    /// The strategies to compare, by name, separated by commas
    #[arg(long, value_name = "A,B,...", default_value = "random,greedy,book")]
    strategies: String,
    /// Take the solver's verdicts from a stats --jsonl file or --json summary instead of
    /// solving the deals again
    #[arg(long, value_name = "FILE")]
    solver_results: Option<PathBuf>,
    /// Worker threads (default: one per core)
    #[arg(long, value_name = "N", value_parser = value_parser!(u32).range(1..=1024))]
    threads: Option<u32>,
    /// Enter the comparison into FILE, a list of comparisons (an earlier entry for the same
    /// game and variant is replaced), atomically
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
}

fn parse_size(text: &str) -> Result<u64, String> {
    let text = text.trim();
    let split = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    let (digits, unit) = text.split_at(split);
    let number: u64 = digits
        .parse()
        .map_err(|_| format!("'{text}' is not a size such as 512M or 4G"))?;
    let scale: u64 = match unit
        .to_ascii_uppercase()
        .trim_end_matches("IB")
        .trim_end_matches('B')
    {
        "" => 1,
        "K" => 1 << 10,
        "M" => 1 << 20,
        "G" => 1 << 30,
        "T" => 1 << 40,
        _ => return Err(format!("'{text}' is not a size such as 512M or 4G")),
    };
    number
        .checked_mul(scale)
        .ok_or_else(|| format!("'{text}' is too large"))
}

/// The game's subcommand, with one flag per variant option.
fn game_command(game: &dyn GameEntry) -> Command {
    let mut command = Command::new(game.name()).about(game.summary());
    for option in game.options() {
        let arg = Arg::new(option.name).long(option.name);
        command = command.arg(match option.kind {
            OptionKind::Flag => arg.help(option.help).action(ArgAction::SetTrue),
            OptionKind::Number { min, max, default } => arg
                .help(format!("{} ({min} to {max})", option.help))
                .value_name("N")
                .value_parser(value_parser!(u32).range(min as i64..=max as i64))
                .default_value(default.to_string()),
        });
    }
    command
}

/// A command whose subcommands are the games, each taking `A`'s arguments.
fn per_game<A: Args>(name: &'static str, about: &'static str) -> Command {
    Command::new(name)
        .about(about)
        .subcommand_required(true)
        .subcommand_value_name("GAME")
        .subcommands(
            games::all()
                .into_iter()
                .map(|g| A::augment_args(game_command(g))),
        )
}

pub fn command() -> Command {
    Command::new("patience")
        .about("Decides patience deals exhaustively, shows how to win them, and measures each game's odds")
        .version(env!("CARGO_PKG_VERSION"))
        .subcommand_required(true)
        .subcommand(Command::new("games").about("List the games and their variant options"))
        .subcommand(per_game::<DealArgs>("deal", "Print a deal's cards and its layout"))
        .subcommand(per_game::<SolveArgs>("solve", "Solve one deal: won (with moves), lost (proven) or unknown"))
        .subcommand(
            per_game::<VerifyArgs>("verify", "Replay a move list from a deal and check it wins")
                .mut_subcommands(|g| g.mut_group("deal_source", |group| group.required(false))),
        )
        .subcommand(per_game::<PerftArgs>("perft", "Count the legal move paths from a deal, depth by depth"))
        .subcommand(per_game::<StatsArgs>("stats", "Solve a range of seeded deals in parallel and report the odds"))
        .subcommand(per_game::<PlayArgs>("play", "Play one deal with a strategy that sees only what a player sees"))
        .subcommand(per_game::<CompareArgs>("compare", "Play strategies and the solver on the same deals and compare them"))
        .subcommand(
            Command::new("merge")
                .about("Combine the --jsonl files of shards or interrupted runs into one summary")
                .arg(Arg::new("files").value_name("FILE").num_args(1..).required(true).value_parser(value_parser!(PathBuf)))
                .arg(Arg::new("json").long("json").value_name("FILE").value_parser(value_parser!(PathBuf)).help("Write the summary to FILE, atomically"))
                .arg(Arg::new("onto").long("onto").value_name("SUMMARY").value_parser(value_parser!(PathBuf)).help("Enter the files' records of the deals SUMMARY (a stats --json summary) holds as unknown onto it, for retry passes made with stats --unknown-in SUMMARY; a FILE that is itself a summary enters the verdicts it decided")),
        )
        .subcommand(
            Command::new("report")
                .about("Print results/*.json summaries as a Markdown table (the README's), or a --jsonl file's passes")
                .arg(Arg::new("files").value_name("FILE").num_args(1..).required(true).value_parser(value_parser!(PathBuf))),
        )
}

/// Turns a clap error into our one-line form; help and version pass through untouched.
fn one_line(error: clap::Error) -> Result<Request, String> {
    if !error.use_stderr() {
        error.exit();
    }
    if error.kind() == ErrorKind::InvalidSubcommand {
        if let Some(ContextValue::String(name)) = error.get(ContextKind::InvalidSubcommand) {
            let known: Vec<&str> = games::all().iter().map(|g| g.name()).collect();
            return Err(format!(
                "unknown game or command '{name}' (games: {}; see patience --help)",
                known.join(", ")
            ));
        }
    }
    // clap's first line names the problem; the indented lines after it (if any) name the
    // arguments concerned. Keep both, on one line.
    let rendered = error.to_string();
    let mut lines = rendered.lines();
    let first = lines
        .next()
        .unwrap_or("invalid arguments")
        .trim_start_matches("error: ");
    let named: Vec<&str> = lines
        .take_while(|l| l.starts_with(' '))
        .map(str::trim)
        .collect();
    Err(format!(
        "{first} {}(see --help)",
        named.join(", ") + if named.is_empty() { "" } else { " " }
    ))
}

pub fn parse<I: IntoIterator<Item = std::ffi::OsString>>(args: I) -> Result<Request, String> {
    let matches = command()
        .try_get_matches_from(args)
        .or_else(|e| one_line(e).map(|_| unreachable!()))?;
    let (name, sub) = matches.subcommand().expect("a subcommand is required");
    match name {
        "games" => Ok(Request::Games),
        "merge" => Ok(Request::Merge {
            files: sub
                .get_many::<PathBuf>("files")
                .expect("required")
                .cloned()
                .collect(),
            json: sub.get_one::<PathBuf>("json").cloned(),
            onto: sub.get_one::<PathBuf>("onto").cloned(),
        }),
        "report" => Ok(Request::Report {
            files: sub
                .get_many::<PathBuf>("files")
                .expect("required")
                .cloned()
                .collect(),
        }),
        _ => {
            let (game_name, game_matches) = sub.subcommand().expect("a game is required");
            let entry = games::find(game_name).expect("clap offers only known games");
            let game = Chosen {
                entry,
                options: option_values(entry, game_matches)?,
            };
            game_request(name, game, game_matches)
        }
    }
}

fn option_values(entry: &dyn GameEntry, matches: &ArgMatches) -> Result<OptionValues, String> {
    let mut values = OptionValues::defaults(entry.options());
    for option in entry.options() {
        let value = match option.kind {
            OptionKind::Flag => matches.get_flag(option.name) as u32,
            OptionKind::Number { .. } => {
                *matches.get_one::<u32>(option.name).expect("has a default")
            }
        };
        values.set(entry.options(), option.name, value)?;
    }
    Ok(values)
}

fn arguments<A: FromArgMatches>(matches: &ArgMatches) -> Result<A, String> {
    A::from_arg_matches(matches)
        .map_err(|e| e.to_string().lines().next().unwrap_or_default().to_string())
}

fn game_request(command: &str, game: Chosen, matches: &ArgMatches) -> Result<Request, String> {
    match command {
        "deal" => {
            let deal =
                deal_id(&arguments::<DealArgs>(matches)?, &game)?.expect("a deal is required");
            Ok(Request::Deal { game, deal })
        }
        "solve" => {
            let args: SolveArgs = arguments(matches)?;
            let deal = deal_id(&args.deal, &game)?.expect("a deal is required");
            let order = args.budget.order(&game)?;
            Ok(Request::Solve {
                game,
                deal,
                json: args.json,
                order,
                budget: args.budget.budget(),
            })
        }
        "verify" => {
            let args: VerifyArgs = arguments(matches)?;
            let deal = deal_id(&args.deal, &game)?;
            Ok(Request::Verify {
                game,
                deal,
                solution: args.solution,
            })
        }
        "perft" => {
            let args: PerftArgs = arguments(matches)?;
            let deal = deal_id(&args.deal, &game)?.expect("a deal is required");
            Ok(Request::Perft {
                game,
                deal,
                depth: args.depth,
            })
        }
        "play" => {
            let args: PlayArgs = arguments(matches)?;
            let deal = deal_id(&args.deal, &game)?.expect("a deal is required");
            Ok(Request::Play {
                game,
                deal,
                strategy: args.strategy,
                json: args.json,
            })
        }
        "compare" => {
            let args: CompareArgs = arguments(matches)?;
            let range = deal_range(&args.range, &game)?;
            let mut strategies = Vec::new();
            for name in args.strategies.split(',') {
                let kind = StrategyKind::parse(name)?;
                if strategies.contains(&kind) {
                    return Err(format!("--strategies names {} twice", kind.name()));
                }
                strategies.push(kind);
            }
            let order = args.budget.order(&game)?;
            Ok(Request::Compare(CompareRequest {
                game,
                range,
                strategies,
                solver_results: args.solver_results,
                threads: args.threads.map(|t| t as usize),
                json: args.json,
                order,
                budget: args.budget.budget(),
            }))
        }
        "stats" => {
            let args: StatsArgs = arguments(matches)?;
            let range = deal_range(&args.range, &game)?;
            let shard = args
                .shard
                .as_deref()
                .map(parse_shard)
                .transpose()?
                .unwrap_or((1, 1));
            let order = args.budget.order(&game)?;
            let json = match (args.json, args.no_json) {
                (Some(path), _) => SummaryFile::Named(path),
                (None, true) => SummaryFile::None,
                (None, false) => SummaryFile::default_for(&game, &range, shard),
            };
            Ok(Request::Stats(StatsRequest {
                game,
                range,
                shard,
                threads: args.threads.map(|t| t as usize),
                json,
                jsonl: args.jsonl,
                resume: args.resume,
                retry_unknown: args.retry_unknown,
                unknown_in: args.unknown_in,
                order,
                budget: args.budget.budget(),
            }))
        }
        other => unreachable!("no command {other}"),
    }
}

fn deal_range(args: &RangeArgs, game: &Chosen) -> Result<DealRange, String> {
    let range = match (&args.seeds, &args.ms) {
        (Some(seeds), _) => DealRange::parse(seeds, false)?,
        (_, Some(ms)) => DealRange::parse(ms, true)?,
        _ => unreachable!("clap requires one range"),
    };
    if range.microsoft && game.entry.packs() != 1 {
        return Err(format!(
            "Microsoft deal numbers give one pack, but {} uses two; use --seeds",
            game.entry.name()
        ));
    }
    Ok(range)
}

/// The deal the arguments name, checked against the game (its cards are parsed here, so a bad
/// deal is reported before any work).
fn deal_id(args: &DealArgs, game: &Chosen) -> Result<Option<DealId>, String> {
    let deal = match (args.seed, args.ms, &args.file) {
        (Some(seed), _, _) => DealId::Seed(seed),
        (_, Some(ms), _) => DealId::Ms(ms),
        (_, _, Some(path)) => {
            let text = read_text(path)?;
            let cards = parse_deal(&text, game.entry.packs())
                .map_err(|e| format!("{}: {e}", path.display()))?;
            DealId::Cards(format_cards(&cards))
        }
        _ => return Ok(None),
    };
    deal.cards(game.entry.packs())?;
    Ok(Some(deal))
}

/// Reads a file, or standard input for `-`.
pub fn read_text(path: &Path) -> Result<String, String> {
    if path.as_os_str() == "-" {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .map_err(|e| format!("cannot read standard input: {e}"))?;
        Ok(text)
    } else {
        std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_tree_is_well_formed() {
        command().debug_assert();
    }

    #[test]
    fn sizes() {
        assert_eq!(parse_size("512M"), Ok(512 << 20));
        assert_eq!(parse_size("4G"), Ok(4 << 30));
        assert_eq!(parse_size("2GiB"), Ok(2 << 30));
        assert_eq!(parse_size("1000"), Ok(1000));
        assert!(parse_size("lots").is_err());
    }
}
