//! The command line as a user meets it: answers, the replay checker, batches that are
//! interrupted and resumed or split into shards, and one-line errors with exit code 2.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The binary, each run in a directory of its own: `stats` writes its summary under
/// `results/` there unless told otherwise, the checkout's `results/` must not change, and
/// tests running at once must not meet in one directory.
fn binary() -> Command {
    static RUNS: AtomicUsize = AtomicUsize::new(0);
    let run = RUNS.fetch_add(1, Ordering::Relaxed);
    let home = std::env::temp_dir().join(format!("patience-cli-{}-run{run}", std::process::id()));
    let _ = fs::remove_dir_all(&home);
    fs::create_dir_all(&home).unwrap();
    let mut command = Command::new(env!("CARGO_BIN_EXE_patience"));
    command.current_dir(home);
    command
}

fn patience(args: &[&str]) -> Output {
    binary().args(args).output().expect("the binary runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// Runs a command that must succeed, and returns what it printed.
fn succeeds(args: &[&str]) -> String {
    let output = patience(args);
    assert!(
        output.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    stdout(&output)
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("patience-cli-{}-{name}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

/// Bad input: exit code 2 and a single line on standard error that names the problem.
fn assert_refused(args: &[&str], stdin_file: Option<&Path>, mentions: &str) {
    let mut command = binary();
    command.args(args);
    if let Some(file) = stdin_file {
        command.stdin(fs::File::open(file).unwrap());
    }
    let output = command.output().unwrap();
    let error = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{args:?}: {error}");
    assert_eq!(
        error.trim_end().lines().count(),
        1,
        "{args:?}: not one line: {error}"
    );
    assert!(
        error.contains(mentions),
        "{args:?}: '{error}' does not mention '{mentions}'"
    );
    assert!(output.stdout.is_empty(), "{args:?} printed to stdout");
}

#[test]
fn solve_json_is_verified_by_the_checker() {
    let dir = scratch("verify");
    for deal in ["1", "617"] {
        let output = patience(&["solve", "freecell", "--ms", deal, "--json"]);
        assert!(output.status.success());
        let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        assert_eq!(json["verdict"], "won");
        assert_eq!(json["deal"]["ms"], deal.parse::<u64>().unwrap());
        assert_eq!(json["game"], "freecell");
        assert_eq!(json["variant"], "standard");
        let file = dir.join(format!("{deal}.json"));
        fs::write(&file, &output.stdout).unwrap();
        // The deal is taken from the file, or from the command line.
        let checked = patience(&["verify", "freecell", "--solution", file.to_str().unwrap()]);
        assert!(checked.status.success(), "{}", stdout(&checked));
        assert!(stdout(&checked).contains("valid"));
        let checked = patience(&[
            "verify",
            "freecell",
            "--ms",
            deal,
            "--solution",
            file.to_str().unwrap(),
        ]);
        assert!(checked.status.success());

        // The same moves as plain text, one per line, with the numbering `solve` prints.
        let moves: Vec<String> = json["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap().into())
            .collect();
        let numbered: String = moves
            .iter()
            .enumerate()
            .map(|(i, m)| format!("{:>4}. {m}\n", i + 1))
            .collect();
        let text = dir.join(format!("{deal}.txt"));
        fs::write(&text, &numbered).unwrap();
        assert!(patience(&[
            "verify",
            "freecell",
            "--ms",
            deal,
            "--solution",
            text.to_str().unwrap()
        ])
        .status
        .success());

        // Cut short: legal but not won (exit 1). Corrupted: says which move (exit 1).
        fs::write(&text, moves[..moves.len() - 1].join("\n")).unwrap();
        let short = patience(&[
            "verify",
            "freecell",
            "--ms",
            deal,
            "--solution",
            text.to_str().unwrap(),
        ]);
        assert_eq!(short.status.code(), Some(1));
        assert!(stdout(&short).contains("not won"));
        let mut bad = moves.clone();
        bad[2] = "KS 1h".into();
        fs::write(&text, bad.join("\n")).unwrap();
        let wrong = patience(&[
            "verify",
            "freecell",
            "--ms",
            deal,
            "--solution",
            text.to_str().unwrap(),
        ]);
        assert_eq!(wrong.status.code(), Some(1));
        assert!(
            stdout(&wrong).contains("move 3, 'KS 1h', is not legal"),
            "{}",
            stdout(&wrong)
        );
    }
}

#[test]
fn lost_and_unknown_answers() {
    let lost = patience(&["solve", "freecell", "--ms", "11982", "--json"]);
    let json: serde_json::Value = serde_json::from_slice(&lost.stdout).unwrap();
    assert_eq!(json["verdict"], "lost");
    assert_eq!(json["moves"].as_array().unwrap().len(), 0);
    let unknown = patience(&[
        "solve",
        "freecell",
        "--ms",
        "1",
        "--max-nodes",
        "10",
        "--json",
    ]);
    let json: serde_json::Value = serde_json::from_slice(&unknown.stdout).unwrap();
    assert_eq!(json["verdict"], "unknown");
    assert!(json["reason"].as_str().unwrap().contains("--max-nodes"));
    let text = stdout(&patience(&["solve", "freecell", "--ms", "11982"]));
    assert!(text.contains("lost"), "{text}");
    // The SAT search: a loss says what proves it, and a case out of conflicts is unknown.
    let text = stdout(&patience(&[
        "solve", "wheel", "--seed", "2", "--search", "sat",
    ]));
    assert!(
        text.contains("every case of the game's formula is unsatisfiable"),
        "{text}"
    );
    let unknown = patience(&[
        "solve",
        "wheel",
        "--seed",
        "11504",
        "--search",
        "sat",
        "--max-nodes",
        "10",
        "--json",
    ]);
    let json: serde_json::Value = serde_json::from_slice(&unknown.stdout).unwrap();
    assert_eq!(json["verdict"], "unknown");
    assert!(json["reason"].as_str().unwrap().contains("conflict budget"));
}

#[test]
fn a_written_deal_solves_like_its_number() {
    let dir = scratch("written");
    let shown = stdout(&patience(&["deal", "freecell", "--ms", "617"]));
    let cards = shown
        .lines()
        .nth(1)
        .unwrap()
        .to_lowercase()
        .replace("t", "10");
    let file = dir.join("deal.txt");
    fs::write(&file, cards.replace(' ', ",\n")).unwrap();
    let by_file = patience(&[
        "solve",
        "freecell",
        "--deal",
        file.to_str().unwrap(),
        "--json",
    ]);
    let json: serde_json::Value = serde_json::from_slice(&by_file.stdout).unwrap();
    let by_number: serde_json::Value =
        serde_json::from_slice(&patience(&["solve", "freecell", "--ms", "617", "--json"]).stdout)
            .unwrap();
    assert_eq!(json["moves"], by_number["moves"]);
    assert!(json["deal"]["cards"]
        .as_str()
        .unwrap()
        .starts_with("7D AD 5C"));
    let from_stdin = binary()
        .args(["deal", "freecell", "--deal", "-"])
        .stdin(fs::File::open(&file).unwrap())
        .output()
        .unwrap();
    assert!(stdout(&from_stdin).contains("7D AD 5C 3S"));
}

#[test]
fn a_deal_printed_is_a_deal_file() {
    let dir = scratch("printed");
    for (game, variant) in [
        ("gate", None),
        ("sedgewick", None),
        ("wheel", None),
        ("queens", Some("--key-cards=20")),
        ("freecell", None),
    ] {
        let mut args = vec!["deal", game];
        args.extend(variant);
        let shown = succeeds(&[&args[..], &["--seed", "7"]].concat());
        let file = dir.join(format!("{game}.txt"));
        fs::write(&file, &shown).unwrap();
        let again = succeeds(&[&args[..], &["--deal", file.to_str().unwrap()]].concat());
        let body = |text: &str| text.lines().skip(1).collect::<Vec<_>>().join("\n");
        assert_eq!(body(&again), body(&shown), "{game}");
        assert!(
            shown
                .lines()
                .all(|l| l.starts_with('#') || !l.contains(':')),
            "{shown}"
        );
    }
}

#[test]
fn what_solve_prints_is_a_solution_file() {
    let dir = scratch("printed-solution");
    let file = dir.join("won.txt");
    fs::write(&file, succeeds(&["solve", "sedgewick", "--seed", "3"])).unwrap();
    let verdict = succeeds(&[
        "verify",
        "sedgewick",
        "--seed",
        "3",
        "--solution",
        file.to_str().unwrap(),
    ]);
    assert!(
        verdict.contains("valid: all 135 moves are legal"),
        "{verdict}"
    );
}

#[test]
fn stats_writes_its_summary_under_results_unless_one_is_there() {
    let dir = scratch("default-summary");
    let run = |args: &[&str]| {
        let output = Command::new(env!("CARGO_BIN_EXE_patience"))
            .args(args)
            .current_dir(&dir)
            .output()
            .unwrap();
        assert!(output.status.success(), "{args:?}");
        String::from_utf8_lossy(&output.stderr).into_owned()
    };
    let first = run(&["stats", "gate", "--seeds", "0..9", "--threads", "1"]);
    let file = dir.join("results/gate-seeds0-9.json");
    assert!(
        first.contains("summary written to results/gate-seeds0-9.json"),
        "{first}"
    );
    let summary: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(summary["deals"], 10);
    // A second run leaves the first's file as it is, and says so.
    fs::write(&file, "kept").unwrap();
    let again = run(&["stats", "gate", "--seeds", "0..9", "--threads", "1"]);
    assert!(again.contains("exists and is left as it is"), "{again}");
    assert_eq!(fs::read_to_string(&file).unwrap(), "kept");
    run(&[
        "stats", "freecell", "--cells", "2", "--ms", "1..4", "--shard", "2/2",
    ]);
    assert!(dir
        .join("results/freecell-cells-2-ms1-4-shard2of2.json")
        .exists());
    run(&[
        "stats",
        "gate",
        "--bars",
        "3",
        "--seeds",
        "0..3",
        "--no-json",
    ]);
    let names: Vec<_> = fs::read_dir(dir.join("results"))
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names.len(), 2, "{names:?}");
}

#[test]
fn bad_input_is_refused_in_one_line_with_exit_code_2() {
    let dir = scratch("bad");
    let write = |name: &str, text: &str| {
        let path = dir.join(name);
        fs::write(&path, text).unwrap();
        path
    };
    let good = stdout(&patience(&["deal", "freecell", "--seed", "3"]))
        .lines()
        .nth(1)
        .unwrap()
        .to_string();
    let malformed = write("malformed.txt", &good.replacen(' ', " 1X ", 1));
    let duplicate = write("duplicate.txt", &good.replacen(&good[3..5], &good[0..2], 1));
    let missing = write("missing.txt", &good[3..]);
    let path = |p: &PathBuf| p.to_str().unwrap().to_string();
    assert_refused(
        &["solve", "freecell", "--deal", &path(&malformed)],
        None,
        "'1X'",
    );
    assert_refused(
        &["solve", "freecell", "--deal", &path(&duplicate)],
        None,
        "appears more often",
    );
    assert_refused(
        &["solve", "freecell", "--deal", &path(&missing)],
        None,
        "has 51 cards",
    );
    assert_refused(
        &["deal", "freecell", "--deal", "-"],
        Some(&malformed),
        "'1X'",
    );
    assert_refused(
        &["solve", "freecell", "--deal", "/no/such/file"],
        None,
        "cannot read",
    );
    assert_refused(
        &["solve", "klondike-of-mars", "--seed", "1"],
        None,
        "unknown game",
    );
    assert_refused(&["solve", "freecell", "--ms", "0"], None, "1 to");
    assert_refused(
        &["solve", "freecell", "--cells", "5", "--seed", "1"],
        None,
        "5",
    );
    assert_refused(&["solve", "freecell", "--seed", "-4"], None, "-4");
    assert_refused(&["stats", "freecell", "--seeds", "9..3"], None, "empty");
    assert_refused(
        &["solve", "wedge", "--second-b", "5", "--seed", "1"],
        None,
        "--second-b takes 2, 9 or 19",
    );
    assert_refused(&["stats", "freecell", "--seeds", "3-9"], None, "A..B");
    assert_refused(&["stats", "freecell", "--seeds", "x..9"], None, "'x'");
    assert_refused(&["stats", "freecell", "--ms", "0..10"], None, "Microsoft");
    assert_refused(
        &["stats", "freecell", "--seeds", "1..3", "--shard", "4/3"],
        None,
        "K/N",
    );
    assert_refused(
        &[
            "stats",
            "freecell",
            "--seeds",
            "1..3",
            "--json",
            "/no/such/dir/out.json",
        ],
        None,
        "cannot write",
    );
    assert_refused(
        &[
            "stats",
            "freecell",
            "--seeds",
            "1..3",
            "--jsonl",
            "/no/such/dir/out.jsonl",
        ],
        None,
        "cannot create",
    );
    assert_refused(&["merge", &path(&malformed)], None, "header");
    assert_refused(
        &["solve", "freecell", "--seed", "1", "--max-memory", "lots"],
        None,
        "size",
    );
    assert_refused(
        &["solve", "sedgewick", "--seed", "1", "--beam-width", "0"],
        None,
        "--beam-width",
    );
    assert_refused(
        &["stats", "wheel", "--seeds", "1..3", "--beam-width", "64"],
        None,
        "--search beam",
    );
    assert_refused(
        &["solve", "freecell", "--seed", "1", "--beam-salt", "1"],
        None,
        "--beam-salt applies to the beam search only",
    );
    assert_refused(
        &["solve", "terrace", "--seed", "1", "--rollout-level", "3"],
        None,
        "--rollout-level applies to the nested rollouts only",
    );
    assert_refused(
        &[
            "solve",
            "terrace",
            "--seed",
            "1",
            "--search",
            "rollout",
            "--rollout-level",
            "5",
        ],
        None,
        "--rollout-level",
    );
    assert_refused(
        &[
            "solve",
            "harp",
            "--seed",
            "1",
            "--beam-width",
            "64",
            "--max-beam-width",
            "32",
        ],
        None,
        "--max-beam-width 32 is narrower than the beam's first width, 64",
    );
    assert_refused(
        &["solve", "wheel", "--seed", "1", "--search", "beam-second"],
        None,
        "games with a second: harp, sedgewick, terrace",
    );
    assert_refused(
        &[
            "solve",
            "sedgewick",
            "--seed",
            "1",
            "--search",
            "beam-fifth",
        ],
        None,
        "(games with a fifth: terrace)",
    );
    assert_refused(
        &["solve", "harp", "--seed", "1", "--search", "beam-third"],
        None,
        "harp has two heuristics only, so --search beam-third would repeat a beam it has \
         (games with a third: terrace)",
    );
    assert_refused(
        &["solve", "wheel", "--seed", "1", "--search", "layered"],
        None,
        "games with layers: freecell",
    );
    assert_refused(
        &["solve", "freecell", "--ms", "1", "--search", "sat"],
        None,
        "the SAT search needs a game stated as formulas, and freecell is not yet (games with \
         formulas: wheel)",
    );
    assert_refused(
        &["stats", "wheel", "--seeds", "1..3", "--search", "narrower"],
        None,
        "wheel (standard) has none",
    );
    assert_refused(
        &[
            "solve", "klondike", "--draw", "1", "--seed", "1", "--search", "wider",
        ],
        None,
        "klondike (draw=1) has none",
    );
    // Nothing half-written is left behind.
    assert!(fs::read_dir("/no/such/dir").is_err());
}

fn summary(path: &Path) -> serde_json::Value {
    let mut json: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(path).unwrap()).unwrap();
    // Times are measured afresh by every run; everything else must match exactly.
    for timed in ["seconds", "cpu_seconds", "peak_bytes"] {
        json.as_object_mut().unwrap().remove(timed);
        for deal in json["hardest"].as_array_mut().unwrap() {
            deal.as_object_mut().unwrap().remove(timed);
        }
    }
    json
}

fn stats(dir: &Path, name: &str, extra: &[&str]) -> (serde_json::Value, Output) {
    let json = dir.join(format!("{name}.json"));
    let mut args = vec![
        "stats",
        "freecell",
        "--cells",
        "2",
        "--seeds",
        "0..39",
        "--max-nodes",
        "20000",
        "--json",
        json.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let output = patience(&args);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    (summary(&json), output)
}

#[test]
fn stats_is_the_same_with_one_or_two_threads_and_when_resumed_or_sharded() {
    let dir = scratch("stats");
    let (one, printed) = stats(&dir, "one", &["--threads", "1"]);
    let (two, _) = stats(&dir, "two", &["--threads", "2"]);
    assert_eq!(one, two);
    assert_eq!(one["deals"], 40);
    assert_eq!(one["verdicts"].as_str().unwrap().len(), 40);
    assert_eq!(one["first_deal"]["seed"], 0);
    assert!(stdout(&printed).contains("win rate"));

    // A run killed part-way: its JSON-lines file holds some deals and a cut-off last line.
    let full = dir.join("full.jsonl");
    stats(&dir, "full", &["--jsonl", full.to_str().unwrap()]);
    let lines: Vec<String> = fs::read_to_string(&full)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    assert_eq!(lines.len(), 41);
    let partial = dir.join("partial.jsonl");
    fs::write(
        &partial,
        format!("{}\n{}", lines[..16].join("\n"), &lines[16][..10]),
    )
    .unwrap();
    let refused = patience(&[
        "stats",
        "freecell",
        "--cells",
        "2",
        "--seeds",
        "0..39",
        "--jsonl",
        partial.to_str().unwrap(),
    ]);
    assert_eq!(
        refused.status.code(),
        Some(2),
        "an existing file is continued only with --resume"
    );
    let (resumed, _) = stats(
        &dir,
        "resumed",
        &["--jsonl", partial.to_str().unwrap(), "--resume"],
    );
    assert_eq!(resumed, one);
    assert_eq!(fs::read_to_string(&partial).unwrap().lines().count(), 41);
    let wrong_game = patience(&[
        "stats",
        "freecell",
        "--seeds",
        "0..39",
        "--jsonl",
        partial.to_str().unwrap(),
        "--resume",
    ]);
    assert_eq!(
        wrong_game.status.code(),
        Some(2),
        "a file of another variant is not continued"
    );

    // Three shards, merged, give the single run's summary.
    let mut shard_files = Vec::new();
    for k in 1..=3 {
        let file = dir.join(format!("shard{k}.jsonl"));
        let shard = format!("{k}/3");
        let (part, _) = stats(
            &dir,
            &format!("shard{k}"),
            &["--shard", &shard, "--jsonl", file.to_str().unwrap()],
        );
        assert_eq!(part["deal_step"], 3);
        shard_files.push(file.to_str().unwrap().to_string());
    }
    let merged_json = dir.join("merged.json");
    let mut args = vec!["merge", "--json", merged_json.to_str().unwrap()];
    args.extend(shard_files.iter().map(String::as_str));
    assert!(patience(&args).status.success());
    assert_eq!(summary(&merged_json), one);
    let incomplete = patience(&["merge", &shard_files[0], &shard_files[1]]);
    assert_eq!(
        incomplete.status.code(),
        Some(2),
        "two of three shards are not one range"
    );

    let report = patience(&["report", merged_json.to_str().unwrap()]);
    assert!(
        stdout(&report).contains("| freecell | cells=2 | 40 |"),
        "{}",
        stdout(&report)
    );
}

#[test]
fn games_lists_every_game_with_its_options() {
    let listed = stdout(&patience(&["games"]));
    assert!(listed.contains("freecell") && listed.contains("--cells"));
    // Each game's own search order, which `--search` overrides.
    let search = |game: &str| {
        let block = listed.split(&format!("\n{game} ")).nth(1).unwrap();
        block
            .lines()
            .find(|l| l.contains("--search"))
            .unwrap()
            .to_string()
    };
    assert!(search("sedgewick").contains("--search beam"));
    assert!(search("gate").contains("--search portfolio"));
    // And the beams by its other heuristics, where it has any.
    let block = |game: &str| listed.split(&format!("\n{game} ")).nth(1).unwrap();
    let terrace = block("terrace").split("\nqueens ").next().unwrap();
    assert!(
        terrace.contains("--search beam-second (to beam-fifth)"),
        "{terrace}"
    );
    let harp = block("harp").split("\nsedgewick ").next().unwrap();
    assert!(harp.contains("--search beam-second ") && !harp.contains("beam-third"));
    let gate = block("gate").split("\nharp ").next().unwrap();
    assert!(!gate.contains("beam-second"));
}

#[test]
fn a_game_searches_in_its_own_order_unless_told_otherwise() {
    let dir = scratch("default-order");
    let run = |name: &str, extra: &[&str]| {
        let jsonl = dir.join(name);
        let mut args = vec![
            "stats",
            "sedgewick",
            "--seeds",
            "7..7",
            "--max-nodes",
            "5000",
        ];
        args.extend(["--jsonl", jsonl.to_str().unwrap()]);
        args.extend(extra);
        succeeds(&args);
        fs::read_to_string(jsonl).unwrap()
    };
    // Seed 7: the beam wins it in 1,445 positions; the portfolio does not within 5,000.
    let own = run("own.jsonl", &[]);
    assert!(
        own.contains(r#""search":"beam""#) && own.contains(r#""won""#),
        "{own}"
    );
    let told = run("told.jsonl", &["--search", "portfolio"]);
    assert!(
        told.contains(r#""search":"portfolio""#) && told.contains(r#""unknown""#),
        "{told}"
    );
}

#[test]
fn perft_command_prints_pinned_counts() {
    let counted = stdout(&patience(&[
        "perft", "freecell", "--ms", "1", "--depth", "3",
    ]));
    assert!(counted.contains("perft 3: 13996"), "{counted}");
}

/// The README's shuffle, written out in Python from its description, deals the same cards.
#[test]
fn the_documented_shuffle_regenerates_deals_without_this_program() {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/shuffle.py");
    for (seed, packs) in [
        ("0", "1"),
        ("987654321", "1"),
        ("18446744073709551615", "2"),
    ] {
        let Ok(python) = Command::new("python3").args([script, seed, packs]).output() else {
            eprintln!("python3 is not installed: skipped");
            return;
        };
        let ours = patience::deal::shuffled(seed.parse().unwrap(), packs.parse().unwrap());
        assert_eq!(
            String::from_utf8_lossy(&python.stdout).trim(),
            patience::card::format_cards(&ours)
        );
    }
}

#[test]
fn every_game_is_listed_and_solves_deals_the_checker_accepts() {
    let listed = stdout(&patience(&["games"]));
    for expected in [
        "gate",
        "--bars N (3..4, default 4)",
        "sedgewick",
        "--no-wrap",
        "wheel",
        "--deal-any-time",
        "terrace",
        "--terrace-cards N (1..13, default 13)",
        "--no-terrace-preference",
        "--fill-from-talon",
        "queens",
        "--key-queens-at-deal-only",
        "--key-cards N (0..32, default 32)",
        "wedge",
        "--second-b N (2..19, default 9)",
        "harp",
        "--redeals N (0..8, default 3)",
        "klondike",
        "--draw N (1..3, default 3)",
        "--no-worry",
        "freecell",
    ] {
        assert!(
            listed.contains(expected),
            "{expected} missing from:\n{listed}"
        );
    }
    let dir = scratch("games");
    let hoffmann = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/gate-hoffmann.txt");
    let climbing = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/queens-climbing.txt"
    );
    let wedge = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/wedge-hoffmann.txt");
    let cases: [&[&str]; 14] = [
        &["wedge", "--deal", wedge],
        &["harp", "--seed", "32"],
        &["wedge", "--second-b", "19", "--seed", "3"],
        &["gate", "--deal", hoffmann],
        &["gate", "--bars", "3", "--seed", "5"],
        &["sedgewick", "--seed", "3"],
        &["sedgewick", "--no-wrap", "--seed", "5"],
        &["wheel", "--seed", "1"],
        &["wheel", "--deal-any-time", "--seed", "2"],
        &["terrace", "--seed", "16"],
        &[
            "terrace",
            "--terrace-cards",
            "11",
            "--fill-from-talon",
            "--seed",
            "26",
        ],
        &["queens", "--key-cards", "0", "--deal", climbing],
        &["klondike", "--seed", "2"],
        &["klondike", "--draw", "1", "--no-worry", "--seed", "2"],
    ];
    for (i, case) in cases.iter().enumerate() {
        let mut args = vec!["solve"];
        args.extend_from_slice(case);
        args.push("--json");
        let output = patience(&args);
        let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        assert_eq!(json["verdict"], "won", "{case:?}");
        let file = dir.join(format!("{i}.json"));
        fs::write(&file, &output.stdout).unwrap();
        let mut verify = vec!["verify"];
        verify.extend_from_slice(case);
        verify.extend_from_slice(&["--solution", file.to_str().unwrap()]);
        let checked = patience(&verify);
        assert!(checked.status.success(), "{case:?}: {}", stdout(&checked));
    }
    // The Queens, seed 1: the 7S on top of the key waits for a six of spades; both lie beneath.
    let lost = patience(&["solve", "queens", "--seed", "1", "--json"]);
    let json: serde_json::Value = serde_json::from_slice(&lost.stdout).unwrap();
    assert_eq!(
        (json["verdict"].as_str(), json["nodes"].as_u64()),
        (Some("lost"), Some(1))
    );
    assert_refused(
        &["solve", "gate", "--bars", "5", "--seed", "1"],
        None,
        "5 is not in 3..=4",
    );
    assert_refused(
        &["solve", "sedgewick", "--cells", "2", "--seed", "1"],
        None,
        "--cells",
    );
}

/// `stats` over two-cell FreeCell seeds 0-29 on one thread within `nodes` positions: a batch
/// that leaves some deals unknown at 3,000 positions and fewer at 30,000.
fn two_cell_stats(nodes: &str) -> Vec<&str> {
    vec![
        "stats",
        "freecell",
        "--cells",
        "2",
        "--seeds",
        "0..29",
        "--threads",
        "1",
        "--max-nodes",
        nodes,
    ]
}

#[test]
fn retrying_unknown_deals_with_a_larger_budget_gives_the_larger_run() {
    let dir = scratch("retry");
    let run = |name: &str, nodes: &str, extra: &[&str]| {
        let json = dir.join(format!("{name}.json"));
        let mut args = two_cell_stats(nodes);
        args.extend_from_slice(&["--json", json.to_str().unwrap()]);
        args.extend_from_slice(extra);
        succeeds(&args);
        summary(&json)
    };
    let file = dir.join("deals.jsonl");
    let jsonl = file.to_str().unwrap();
    let small = run("small", "3000", &["--jsonl", jsonl]);
    assert!(small["unknown"].as_u64().unwrap() > 0, "{small}");
    let retried = run(
        "retried",
        "30000",
        &["--jsonl", jsonl, "--resume", "--retry-unknown"],
    );
    let large = run("large", "30000", &[]);
    assert_eq!(retried, large);
    // Its search time is every search of every deal: the first pass's records of the deals
    // retried are superseded, not forgotten, and `merge` counts them the same way.
    let seconds_in_file: f64 = fs::read_to_string(&file)
        .unwrap()
        .lines()
        .skip(1)
        .map(|line| {
            serde_json::from_str::<serde_json::Value>(line).unwrap()["seconds"]
                .as_f64()
                .unwrap()
        })
        .sum();
    let cpu_seconds = |path: &Path| {
        let json: serde_json::Value =
            serde_json::from_str(&fs::read_to_string(path).unwrap()).unwrap();
        json["cpu_seconds"].as_f64().unwrap()
    };
    let merged = dir.join("merged.json");
    succeeds(&["merge", jsonl, "--json", merged.to_str().unwrap()]);
    for path in [dir.join("retried.json"), merged] {
        let counted = cpu_seconds(&path);
        assert!(
            (counted - seconds_in_file).abs() < 1e-6,
            "{counted} against {seconds_in_file}"
        );
    }
    // A retry with the same order and budget passes over the deals that budget left unknown,
    // so a retry pass that was interrupted goes on where it stopped.
    let lines = || fs::read_to_string(&file).unwrap().lines().count();
    let before = lines();
    let again = run(
        "again",
        "30000",
        &["--jsonl", jsonl, "--resume", "--retry-unknown"],
    );
    assert_eq!(again, large);
    assert_eq!(lines(), before);
    let retry_args = |search: &[&'static str]| {
        let mut args = vec!["--jsonl", jsonl, "--resume", "--retry-unknown"];
        args.extend_from_slice(search);
        args
    };
    let deeper = run("deeper", "30000", &retry_args(&["--search", "beam"]));
    assert_eq!(
        lines(),
        before + large["unknown"].as_u64().unwrap() as usize
    );
    assert!(deeper["unknown"].as_u64().unwrap() <= large["unknown"].as_u64().unwrap());
    // The hardest deals are named by their largest search, as the maxima count it, whichever
    // search decided them.
    assert_eq!(
        deeper["hardest"][0]["nodes"], deeper["nodes"]["max"],
        "{deeper}"
    );
    // A beam whose runs start at another width is another search: its retry solves the deals
    // left unknown again, once.
    let other_widths = retry_args(&["--search", "beam", "--beam-width", "11"]);
    let before_widths = lines();
    let widths = run("widths", "30000", &other_widths);
    assert_eq!(
        lines(),
        before_widths + deeper["unknown"].as_u64().unwrap() as usize
    );
    // Some of its beams stop short of the budget, before a run the budget left could not
    // carry, and say so: run again, they stop there again, so they count as tried.
    let records = fs::read_to_string(&file).unwrap();
    let stopped_short = records.lines().skip(before_widths).filter(|line| {
        let record: serde_json::Value = serde_json::from_str(line).unwrap();
        record["reason"] == "next-beam-run" && record["nodes"].as_u64().unwrap() < 30000
    });
    assert!(stopped_short.count() > 0, "{records}");
    let after_widths = lines();
    assert_eq!(run("widths-again", "30000", &other_widths), widths);
    assert_eq!(lines(), after_widths);
    // So is a beam with a salt: it breaks ties otherwise, and may win what the same beam
    // without it left unknown.
    let salted = retry_args(&["--search", "beam", "--beam-width", "11", "--beam-salt", "1"]);
    let salts = run("salted", "30000", &salted);
    assert_eq!(
        lines(),
        after_widths + widths["unknown"].as_u64().unwrap() as usize
    );
    let after_salts = lines();
    assert_eq!(run("salted-again", "30000", &salted), salts);
    assert_eq!(lines(), after_salts);
    // So is a beam kept to one width: its runs end once the width is spent, most well within
    // the node budget, and its retry run again still passes over them.
    let one_width = retry_args(&[
        "--search",
        "beam",
        "--beam-width",
        "11",
        "--max-beam-width",
        "11",
    ]);
    let narrow = run("one-width", "30000", &one_width);
    assert_eq!(
        lines(),
        after_salts + salts["unknown"].as_u64().unwrap() as usize
    );
    let records = fs::read_to_string(&file).unwrap();
    let stopped_by_width = records.lines().skip(after_salts + 1).filter(|line| {
        let record: serde_json::Value = serde_json::from_str(line).unwrap();
        record["max_beam_width"] == 11 && record["nodes"].as_u64().unwrap() < 30000
    });
    assert!(stopped_by_width.count() > 0, "{records}");
    let after_width = lines();
    assert_eq!(run("one-width-again", "30000", &one_width), narrow);
    assert_eq!(lines(), after_width);
    // Any record counts, not just a deal's latest: the passes run again from the first retry
    // solve nothing, though the last pass has tried every deal still unknown since.
    let retry_again = run(
        "retry-again",
        "30000",
        &["--jsonl", jsonl, "--resume", "--retry-unknown"],
    );
    assert_eq!(retry_again["verdicts"], narrow["verdicts"]);
    run("deeper-again", "30000", &retry_args(&["--search", "beam"]));
    assert_eq!(lines(), after_width);
    // `report` on the file: one row per pass, the order, first width and budget it ran with.
    let passes = stdout(&patience(&["report", jsonl]));
    let count = |s: &serde_json::Value, field: &str| s[field].as_u64().unwrap();
    let rows = [
        format!(
            "| 1 | portfolio | — | 3000 | 30 | {} |",
            count(&small, "won")
        ),
        format!(
            "| 2 | portfolio | — | 30000 | {} |",
            count(&small, "unknown")
        ),
        format!("| 3 | beam | 8 | 30000 | {} |", count(&large, "unknown")),
        format!("| 4 | beam | 11 | 30000 | {} |", count(&deeper, "unknown")),
        format!(
            "| 5 | beam | 11, salt 1 | 30000 | {} |",
            count(&widths, "unknown")
        ),
        format!(
            "| 6 | beam | 11, widest 11 | 30000 | {} |",
            count(&salts, "unknown")
        ),
    ];
    for row in rows {
        assert!(passes.contains(&row), "{row} not in\n{passes}");
    }
    assert!(large["unknown"].as_u64().unwrap() > 0, "{large}");
    assert!(large["unknown"].as_u64().unwrap() < small["unknown"].as_u64().unwrap());
    // The file keeps every record of a retried deal; merge takes the decided one, as the last
    // pass's own summary did (the beam may decide deals the larger budget left unknown).
    let merged = dir.join("merged.json");
    let output = patience(&["merge", jsonl, "--json", merged.to_str().unwrap()]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(summary(&merged)["verdicts"], narrow["verdicts"]);
    // The nested rollouts record their level whether or not it was given, so a retry naming
    // the default level passes over the deals the default tried; another level is another
    // search.
    let rolled = run("rollout", "30000", &retry_args(&["--search", "rollout"]));
    assert_eq!(
        lines(),
        after_width + narrow["unknown"].as_u64().unwrap() as usize
    );
    let records = fs::read_to_string(&file).unwrap();
    let last: serde_json::Value = serde_json::from_str(records.lines().last().unwrap()).unwrap();
    assert_eq!(last["rollout_level"], 2, "{last}");
    let after_rollout = lines();
    let named = retry_args(&["--search", "rollout", "--rollout-level", "2"]);
    assert_eq!(run("rollout-named", "30000", &named), rolled);
    assert_eq!(lines(), after_rollout);
    let level_one = retry_args(&["--search", "rollout", "--rollout-level", "1"]);
    run("rollout-level-one", "30000", &level_one);
    assert_eq!(
        lines(),
        after_rollout + rolled["unknown"].as_u64().unwrap() as usize
    );
    let passes = stdout(&patience(&["report", jsonl]));
    for row in [
        "| rollout | level 2 | 30000 |",
        "| rollout | level 1 | 30000 |",
    ] {
        assert!(passes.contains(row), "{row} not in\n{passes}");
    }
    assert_refused(
        &["stats", "freecell", "--seeds", "0..9", "--retry-unknown"],
        None,
        "--resume",
    );
}

#[test]
fn a_summary_whose_records_are_gone_is_retried_and_amended() {
    let dir = scratch("amend");
    let path = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let stats = |nodes: &str, extra: &[&str]| {
        let mut args = two_cell_stats(nodes);
        args.extend_from_slice(extra);
        succeeds(&args)
    };
    // The base: a summary alone, its --jsonl records never kept.
    stats("3000", &["--json", &path("base.json")]);
    let base = summary(&dir.join("base.json"));
    let unknown = base["unknown"].as_u64().unwrap();
    assert!(unknown > 0, "{base}");
    // The retry pass searches only the deals the base left unknown, and resumes like any.
    let retry = [
        "--unknown-in",
        &path("base.json"),
        "--jsonl",
        &path("retries.jsonl"),
        "--resume",
        "--retry-unknown",
    ];
    let first_pass = stats("30000", &retry);
    assert!(
        first_pass.contains(&format!(
            "{unknown} deals the summary held unknown, {unknown} of them searched now"
        )),
        "{first_pass}"
    );
    let lines = || {
        fs::read_to_string(dir.join("retries.jsonl"))
            .unwrap()
            .lines()
            .count()
    };
    assert_eq!(lines(), 1 + unknown as usize);
    let second_pass = stats("30000", &retry);
    assert!(
        second_pass.contains(&format!(
            "{unknown} deals the summary held unknown, 0 of them searched now"
        )),
        "{second_pass}"
    );
    assert_eq!(lines(), 1 + unknown as usize);
    // Entered onto the base, the verdicts are the larger budget's own run.
    succeeds(&[
        "merge",
        "--onto",
        &path("base.json"),
        &path("retries.jsonl"),
        "--json",
        &path("amended.json"),
    ]);
    stats("30000", &["--json", &path("large.json")]);
    let (amended, large) = (
        summary(&dir.join("amended.json")),
        summary(&dir.join("large.json")),
    );
    for field in ["verdicts", "won", "lost", "unknown", "win_rate", "ci95"] {
        assert_eq!(amended[field], large[field], "{field}");
    }
    assert_eq!(amended["retried"].as_u64(), Some(unknown));
    assert_eq!(amended["nodes"]["median"], base["nodes"]["median"]);
    assert_eq!(amended["nodes"]["max"], large["nodes"]["max"]);
    assert!(large.get("retried").is_none());
    // The retry pass's own summary is the base with its records entered: each verdict stays
    // with its deal, though the deals retried lie scattered among the base's.
    let mut retry_json = retry.to_vec();
    let retried_path = path("retried.json");
    retry_json.extend_from_slice(&["--json", &retried_path]);
    stats("30000", &retry_json);
    assert_eq!(summary(&dir.join("retried.json")), amended);
    // Refusals: another game's summary, deals it does not cover, records it contradicts.
    assert_refused(
        &[
            "stats",
            "freecell",
            "--seeds",
            "0..29",
            "--unknown-in",
            &path("base.json"),
        ],
        None,
        "summarises freecell (cells=2), not freecell (standard)",
    );
    assert_refused(
        &[
            "stats",
            "freecell",
            "--cells",
            "2",
            "--seeds",
            "0..30",
            "--unknown-in",
            &path("base.json"),
        ],
        None,
        "seed 30 is not one of the 30 deals from seed 0 that",
    );
    let records = fs::read_to_string(dir.join("retries.jsonl")).unwrap();
    let won_record = records
        .lines()
        .skip(1)
        .find(|l| l.contains("\"won\""))
        .unwrap();
    let won_seed: u64 = serde_json::from_str::<serde_json::Value>(won_record).unwrap()["deal"]
        ["seed"]
        .as_u64()
        .unwrap();
    let mut contradicted: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(dir.join("amended.json")).unwrap()).unwrap();
    let mut letters = contradicted["verdicts"].as_str().unwrap().to_string();
    letters.replace_range(won_seed as usize..=won_seed as usize, "l");
    contradicted["verdicts"] = serde_json::Value::from(letters);
    fs::write(dir.join("contradicted.json"), contradicted.to_string()).unwrap();
    assert_refused(
        &[
            "merge",
            "--onto",
            &path("contradicted.json"),
            &path("retries.jsonl"),
        ],
        None,
        &format!("seed {won_seed} is l in the summary but w in the records"),
    );
    assert_refused(
        &[
            "merge",
            "--onto",
            &path("retries.jsonl"),
            &path("retries.jsonl"),
        ],
        None,
        "is not a stats --json summary",
    );
}

#[test]
fn a_deeper_summary_over_part_of_a_range_enters_its_verdicts_onto_a_wider_pass() {
    let dir = scratch("enter");
    let path = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let two_cells = |seeds: &str, nodes: &str, name: &str| {
        let out = path(name);
        let args = [
            "stats",
            "freecell",
            "--cells",
            "2",
            "--seeds",
            seeds,
            "--threads",
            "1",
            "--max-nodes",
            nodes,
            "--json",
            &out,
        ];
        succeeds(&args);
        let text = fs::read_to_string(&out).unwrap();
        serde_json::from_str::<serde_json::Value>(&text).unwrap()
    };
    // A wide, shallow pass, and a deeper one over part of its deals (seeds 10-19).
    let wide = two_cells("0..29", "3000", "wide.json");
    let deep = two_cells("10..19", "30000", "deep.json");
    let letters = |summary: &serde_json::Value| summary["verdicts"].as_str().unwrap().to_string();
    let (wide_letters, deep_letters) = (letters(&wide), letters(&deep));
    let expected: String = wide_letters
        .chars()
        .enumerate()
        .map(|(i, letter)| match (letter, (10..20).contains(&i)) {
            ('u', true) => deep_letters.as_bytes()[i - 10] as char,
            _ => letter,
        })
        .collect();
    let entered = (10..20)
        .filter(|&i| wide_letters.as_bytes()[i] == b'u' && deep_letters.as_bytes()[i - 10] != b'u')
        .count();
    assert!(
        entered > 0,
        "the deeper pass decides none of the deals the wide one left"
    );
    succeeds(&[
        "merge",
        "--onto",
        &path("wide.json"),
        &path("deep.json"),
        "--json",
        &path("joined.json"),
    ]);
    let joined = serde_json::from_str::<serde_json::Value>(
        &fs::read_to_string(dir.join("joined.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(letters(&joined), expected);
    assert_eq!(joined["retried"].as_u64(), Some(entered as u64));
    assert_eq!(joined["deals"], wide["deals"]);
    assert_eq!(joined["nodes"]["median"], wide["nodes"]["median"]);
    let cpu = |summary: &serde_json::Value| summary["cpu_seconds"].as_f64().unwrap();
    assert!((cpu(&joined) - cpu(&wide) - cpu(&deep)).abs() < 1e-9);
    let most = |summary: &serde_json::Value| summary["nodes"]["max"].as_u64().unwrap();
    assert_eq!(most(&joined), most(&wide).max(most(&deep)));
    // Refusals: a summary without a base, another variant's, deals the base does not cover,
    // and a verdict the other way.
    assert_refused(
        &["merge", &path("deep.json")],
        None,
        "is a stats --json summary: a summary can only be entered onto another",
    );
    let four_cells = path("four.json");
    succeeds(&[
        "stats",
        "freecell",
        "--seeds",
        "10..19",
        "--threads",
        "1",
        "--json",
        &four_cells,
    ]);
    assert_refused(
        &["merge", "--onto", &path("wide.json"), &four_cells],
        None,
        "the summary entered is of freecell (standard), but the one it goes onto of freecell (cells=2)",
    );
    two_cells("25..34", "300", "beyond.json");
    assert_refused(
        &["merge", "--onto", &path("wide.json"), &path("beyond.json")],
        None,
        "seed 30 is not one of the deals the summary covers",
    );
    let decided = (0..10)
        .find(|&i| deep_letters.as_bytes()[i] != b'u')
        .unwrap();
    let mut contradicting = deep.clone();
    let mut flipped = deep_letters.clone();
    let other = if deep_letters.as_bytes()[decided] == b'w' {
        "l"
    } else {
        "w"
    };
    flipped.replace_range(decided..=decided, other);
    contradicting["verdicts"] = serde_json::Value::from(flipped);
    fs::write(dir.join("contradicting.json"), contradicting.to_string()).unwrap();
    assert_refused(
        &[
            "merge",
            "--onto",
            &path("joined.json"),
            &path("contradicting.json"),
        ],
        None,
        &format!(
            "seed {} is {} in the summary but {other} in the summary entered",
            10 + decided,
            deep_letters.as_bytes()[decided] as char
        ),
    );
}

#[test]
fn the_narrower_search_answers_with_a_win_of_a_variant_with_fewer_moves() {
    let dir = scratch("narrower");
    // Seed 60 is won under the standard rules; the beam misses it without the preference rule,
    // within this budget, and finds it with the rule, which only takes moves away.
    let solve = |search: &str| {
        let args = [
            "solve",
            "terrace",
            "--no-terrace-preference",
            "--seed",
            "60",
            "--max-nodes",
            "20000",
            "--json",
            "--search",
            search,
        ];
        let output = patience(&args);
        assert!(output.status.success(), "{}", stdout(&output));
        output.stdout
    };
    let own: serde_json::Value = serde_json::from_slice(&solve("beam")).unwrap();
    assert_eq!(own["verdict"], "unknown");
    let narrower = solve("narrower");
    let json: serde_json::Value = serde_json::from_slice(&narrower).unwrap();
    assert_eq!(json["verdict"], "won");
    assert_eq!(json["variant"], "no-terrace-preference");
    let file = dir.join("won.json");
    fs::write(&file, &narrower).unwrap();
    let checked = patience(&[
        "verify",
        "terrace",
        "--no-terrace-preference",
        "--solution",
        file.to_str().unwrap(),
    ]);
    assert!(checked.status.success(), "{}", stdout(&checked));
    // A deal the narrower variant does not win within the budget is unknown, and says why.
    let output = patience(&[
        "solve",
        "wheel",
        "--deal-any-time",
        "--seed",
        "19",
        "--max-nodes",
        "10",
        "--search",
        "narrower",
    ]);
    assert!(output.status.success());
    assert!(
        stdout(&output).contains("no narrower variant was won"),
        "{}",
        stdout(&output)
    );
}

#[test]
fn play_prints_a_game_the_checker_replays() {
    let dir = scratch("play");
    // Gate seed 1: `random` wins it, `greedy` does not.
    for (strategy, verdict, code) in [("random", "won", 0), ("greedy", "lost", 1)] {
        let output = patience(&[
            "play",
            "gate",
            "--seed",
            "1",
            "--strategy",
            strategy,
            "--json",
        ]);
        assert!(output.status.success());
        let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        assert_eq!(json["verdict"], verdict, "{strategy}");
        assert_eq!(json["strategy"], strategy);
        let file = dir.join(format!("{strategy}.json"));
        fs::write(&file, &output.stdout).unwrap();
        let check = patience(&["verify", "gate", "--solution", file.to_str().unwrap()]);
        assert_eq!(check.status.code(), Some(code), "{}", stdout(&check));
        if code == 1 {
            // A lost game is still legal move by move: the checker only finds it unfinished.
            assert!(stdout(&check).contains("moves are legal but the game is not won"));
        }
    }
    let text = stdout(&patience(&[
        "play",
        "gate",
        "--seed",
        "1",
        "--strategy",
        "book",
    ]));
    assert!(
        text.starts_with("# gate (standard), seed 1, book: "),
        "{text}"
    );
    assert!(text.contains("   1. "), "{text}");
    let file = dir.join("book.txt");
    fs::write(&file, &text).unwrap();
    let check = patience(&[
        "verify",
        "gate",
        "--seed",
        "1",
        "--solution",
        file.to_str().unwrap(),
    ]);
    assert!(
        stdout(&check).contains("moves are legal but the game is not won"),
        "{}",
        stdout(&check)
    );
}

#[test]
fn compare_pairs_strategies_with_the_solver_and_enters_each_game_once() {
    let dir = scratch("compare");
    let results = dir.join("strategies.json");
    let compare = |game: &str, extra: &[&str]| {
        let mut args = vec!["compare", game, "--seeds", "0..59", "--max-nodes", "20000"];
        args.extend(["--json", results.to_str().unwrap()]);
        args.extend(extra);
        succeeds(&args)
    };
    let text = compare("gate", &[]);
    assert!(text.contains("random vs greedy: only random won"), "{text}");
    compare("wheel", &["--strategies", "greedy,book"]);
    compare("gate", &["--strategies", "book"]);
    let entered: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&results).unwrap()).unwrap();
    let entered = entered.as_array().unwrap();
    assert_eq!(entered.len(), 2, "one entry per game and variant");
    assert_eq!(
        entered[0]["game"], "gate",
        "an entry entered again keeps its place"
    );
    let gate = entered.iter().find(|r| r["game"] == "gate").unwrap();
    assert_eq!(gate["deals"], 60);
    assert_eq!(gate["strategies"].as_array().unwrap().len(), 1);
    let wheel = entered.iter().find(|r| r["game"] == "wheel").unwrap();
    assert_eq!(wheel["pairs"][0]["a"], "greedy");
    let winnable = wheel["winnable"].as_u64().unwrap();
    for s in wheel["strategies"].as_array().unwrap() {
        assert!(s["won"].as_u64().unwrap() <= winnable);
    }
    // The solver's verdicts read back from a run give the same comparison.
    let jsonl = dir.join("gate.jsonl");
    let summary = dir.join("gate.json");
    let (jsonl, summary) = (jsonl.to_str().unwrap(), summary.to_str().unwrap());
    succeeds(&[
        "stats",
        "gate",
        "--seeds",
        "0..59",
        "--max-nodes",
        "20000",
        "--jsonl",
        jsonl,
        "--json",
        summary,
    ]);
    let fresh = succeeds(&[
        "compare",
        "gate",
        "--seeds",
        "0..59",
        "--max-nodes",
        "20000",
    ]);
    for verdicts in [jsonl, summary] {
        let reused = succeeds(&[
            "compare",
            "gate",
            "--seeds",
            "0..59",
            "--solver-results",
            verdicts,
        ]);
        assert_eq!(reused, fresh, "{verdicts}");
    }
    // A README table can be made of it.
    let table = stdout(&patience(&["report", results.to_str().unwrap()]));
    assert!(table.contains("| gate | standard | 60 |"), "{table}");
}

#[test]
fn compare_refuses_bad_input_and_stops_at_a_contradiction() {
    let dir = scratch("compare-bad");
    let solved = dir.join("lost.jsonl");
    // Gate seed 1 is won (random wins it); a results file that says lost is caught.
    fs::write(
        &solved,
        "{\"game\":\"gate\",\"variant\":\"standard\"}\n\
         {\"deal\":{\"seed\":1},\"verdict\":\"lost\",\"nodes\":1,\"seconds\":0.1}\n",
    )
    .unwrap();
    let path = solved.to_str().unwrap();
    assert_refused(
        &[
            "compare",
            "gate",
            "--seeds",
            "1..1",
            "--solver-results",
            path,
        ],
        None,
        "won seed 1, which the solver proved lost",
    );
    assert_refused(
        &[
            "compare",
            "gate",
            "--seeds",
            "1..2",
            "--solver-results",
            path,
        ],
        None,
        "no verdict for seed 2",
    );
    assert_refused(
        &[
            "compare",
            "wheel",
            "--seeds",
            "1..1",
            "--solver-results",
            path,
        ],
        None,
        "holds gate (standard), not wheel (standard)",
    );
    assert_refused(
        &[
            "compare",
            "gate",
            "--seeds",
            "1..1",
            "--strategies",
            "random,clever",
        ],
        None,
        "unknown strategy 'clever'",
    );
    assert_refused(
        &[
            "compare",
            "gate",
            "--seeds",
            "1..1",
            "--strategies",
            "book,book",
        ],
        None,
        "names book twice",
    );
    assert_refused(&["compare", "gate", "--seeds", "9..1"], None, "is empty");
    assert_refused(
        &["play", "gate", "--seed", "1", "--strategy", "clever"],
        None,
        "unknown strategy 'clever'",
    );
    let not_a_list = dir.join("summary.json");
    fs::write(&not_a_list, "{\"game\": \"gate\"}").unwrap();
    assert_refused(
        &[
            "compare",
            "gate",
            "--seeds",
            "1..1",
            "--json",
            not_a_list.to_str().unwrap(),
        ],
        None,
        "is not a list of comparisons",
    );
    assert_refused(
        &[
            "compare",
            "gate",
            "--seeds",
            "1..1",
            "--json",
            "/nonexistent/dir/s.json",
        ],
        None,
        "cannot write /nonexistent/dir/s.json",
    );
}
