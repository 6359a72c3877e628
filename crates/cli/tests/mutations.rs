//! The verifier's mutation suite: every kind of proof directory is built
//! once on a small board and verified (exit 0); then every mutation that
//! applies to it is made on a fresh copy — the ways a careless or hostile
//! hand could break a certificate — and `boardsat verify` must reject it
//! with a reason (exit 1, or 2 for input that is not a proof directory),
//! within a timeout, never with a panic. The cases are generated, kinds ×
//! mutations, not written one by one; the matrix's size is printed.
//!
//! Every control verifies with cake_lpr, the formally verified LRAT
//! checker, as `--checker` too (and the last line names it), and every
//! mutation is refused with it — and with a fake checker that accepts
//! everything, which must not make a forged directory verified.

mod common;

use std::{
    path::{Path, PathBuf},
    process::{Command, Output, Stdio},
    sync::Mutex,
    time::Duration,
};

use common::{copy_dir, text};
use serde_json::{json, Value};

/// A proof directory of one kind, built once.
struct Base {
    name: &'static str,
    dir: PathBuf,
    /// A split written by `cubes --proof` and run as jobs (a `MANIFEST`,
    /// `results/`, `proofs/<cube>/`), not a `--proof DIR`.
    jobs: bool,
}

/// Runs `boardsat args` in `dir`, which must exit `code`.
fn expect(dir: &Path, args: &[&str], code: i32) {
    let o = common::run_in(dir, args);
    assert_eq!(o.status.code(), Some(code), "{args:?}: {}", text(&o.stderr));
}

/// Every kind of proof directory, on small boards.
fn bases(root: &Path) -> Vec<Base> {
    // DIMACS sources: an unsatisfiable file, a count with a projection
    // (the board's variables, ladder AMO's auxiliary ones left out), and
    // one without (every variable counted: pairwise AMO, none auxiliary).
    expect(root, &["dimacs", "queens", "3", "-o", "q3.cnf"], 0);
    expect(
        root,
        &["dimacs", "queens", "6", "--amo", "ladder", "-o", "q6.cnf"],
        0,
    );
    expect(
        root,
        &[
            "dimacs", "queens", "5", "--amo", "pairwise", "-o", "q5p.cnf",
        ],
        0,
    );
    let projected = std::fs::read_to_string(root.join("q5p.cnf")).unwrap();
    let plain: Vec<&str> = projected
        .lines()
        .filter(|l| !(l.starts_with("c p show") || l.starts_with("c ind")))
        .collect();
    std::fs::write(root.join("plain.cnf"), plain.join("\n") + "\n").unwrap();
    let proof_runs: [(&str, &[&str], i32); 12] = [
        ("solve-optimum", &["solve", "domination", "5"], 0),
        (
            "solve-refutation-split",
            &["solve", "domination", "5", "-k", "2"],
            20,
        ),
        ("solve-refutation", &["solve", "queens", "3"], 20),
        ("solve-placement", &["solve", "queens", "6"], 0),
        (
            "count-unsplit",
            &["count", "independence", "4", "--piece", "king"],
            0,
        ),
        ("count-queens-cubes", &["count", "queens", "6"], 0),
        ("count-domination-split", &["count", "domination", "5"], 0),
        ("enumerate", &["enumerate", "queens", "5"], 0),
        ("solve-dimacs", &["solve-dimacs", "q3.cnf"], 20),
        ("count-dimacs", &["count-dimacs", "plain.cnf"], 0),
        ("count-dimacs-projected", &["count-dimacs", "q6.cnf"], 0),
        (
            "count-dimacs-limit",
            &["count-dimacs", "q6.cnf", "--limit", "3"],
            0,
        ),
    ];
    let mut out = Vec::new();
    for (name, args, code) in proof_runs {
        let mut all = args.to_vec();
        all.extend(["--proof", name]);
        expect(root, &all, code);
        out.push(Base {
            name,
            dir: root.join(name),
            jobs: false,
        });
    }
    for (name, format) in [("jobs-cnf", "cnf"), ("jobs-icnf", "icnf")] {
        expect(
            root,
            &[
                "cubes", "queens", "6", "--depth", "1", "--proof", "--format", format, "-o", name,
            ],
            0,
        );
        common::run_jobs(&root.join(name));
        out.push(Base {
            name,
            dir: root.join(name),
            jobs: true,
        });
    }
    out
}

fn read_json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn write_json(path: &Path, value: &Value) {
    std::fs::write(path, serde_json::to_string_pretty(value).unwrap()).unwrap();
}

/// Edits the JSON file `path` in place.
fn edit_json(path: &Path, edit: impl FnOnce(&mut Value)) {
    let mut value = read_json(path);
    edit(&mut value);
    write_json(path, &value);
}

/// The claims of a proof directory's manifest.
fn claims(dir: &Path) -> Vec<Value> {
    read_json(&dir.join("MANIFEST.json"))["claims"]
        .as_array()
        .cloned()
        .unwrap_or_default()
}

/// The first claim that blocks something (a count above zero).
fn blocking_claim(dir: &Path) -> Option<Value> {
    claims(dir)
        .into_iter()
        .find(|c| c["count"].as_u64().is_some_and(|n| n > 0))
}

/// The ids of a split's cubes whose count is above zero.
fn counted_cubes(dir: &Path) -> Vec<String> {
    let mut ids: Vec<String> = std::fs::read_dir(dir.join("results"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| read_json(p)["count"].as_u64() > Some(0))
        .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    ids.sort();
    ids
}

/// Appends `line` to the DIMACS file `cnf`, its header raised by one.
fn append_clause(cnf: &Path, line: &str) {
    let formula = std::fs::read_to_string(cnf).unwrap();
    let header = formula.lines().find(|l| l.starts_with("p cnf ")).unwrap();
    let words: Vec<&str> = header.split(' ').collect();
    let more = format!(
        "p cnf {} {}",
        words[2],
        words[3].parse::<u64>().unwrap() + 1
    );
    std::fs::write(cnf, formula.replace(header, &more) + line + "\n").unwrap();
}

/// A clause that blocks an assignment that is no model, in the style of
/// the formula's blocking clauses: every square empty over the
/// projection (a DIMACS claim), or the first k squares of the board — k
/// queens on one row, or too few to dominate — as a board claim blocks.
fn forged_clause(cnf: &Path) -> String {
    let formula = std::fs::read_to_string(cnf).unwrap();
    let tag = |key: &str| {
        formula
            .lines()
            .find_map(|l| l.strip_prefix(&format!("c {key} ")))
            .map(str::to_string)
    };
    let last = formula.lines().last().unwrap();
    let Some(bound) = tag("boardsat-bound") else {
        // Over the projection: the variables of the last blocking clause.
        let vars: Vec<String> = last
            .split(' ')
            .map(|w| w.trim_start_matches('-').to_string())
            .filter(|w| w != "0")
            .collect();
        return vars.join(" ") + " 0";
    };
    let k: usize = bound.rsplit(' ').next().unwrap().parse().unwrap();
    let board = tag("board:").unwrap();
    let (r, c) = board.split_once('x').unwrap();
    let n: usize = r.parse::<usize>().unwrap() * c.parse::<usize>().unwrap();
    let short = tag("boardsat-blocking").as_deref() == Some("short");
    let lits: Vec<String> = (1..=n)
        .filter(|&v| !short || v <= k)
        .map(|v| {
            if v <= k {
                format!("-{v}")
            } else {
                v.to_string()
            }
        })
        .collect();
    lits.join(" ") + " 0"
}

/// Appends a forged blocking clause to `cnf` and proves the bigger
/// formula again with `solve-dimacs --proof`, its proof in `lrat`'s
/// place.
fn forge(cnf: &Path, lrat: &Path) {
    append_clause(cnf, &forged_clause(cnf));
    let again = tempfile::tempdir().unwrap();
    let proof = again.path().join("p");
    let o = common::run(&[
        "solve-dimacs",
        cnf.to_str().unwrap(),
        "--proof",
        proof.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(20), "{}", text(&o.stderr));
    std::fs::copy(proof.join("claim-0000.lrat"), lrat).unwrap();
}

/// Raises every count of `n` in the JSON file `path` by one, and the
/// sentences that state it.
fn raise(path: &Path, n: u64) {
    let before = std::fs::read_to_string(path).unwrap();
    let after = before
        .replace(&format!("\"count\": {n}"), &format!("\"count\": {}", n + 1))
        .replace(&format!("\"count\":{n}"), &format!("\"count\":{}", n + 1))
        .replace(&format!("exactly {n} "), &format!("exactly {} ", n + 1));
    std::fs::write(path, after).unwrap();
}

/// Replaces `path` (a file) with a FIFO.
fn fifo(path: &Path) {
    std::fs::remove_file(path).unwrap();
    assert!(Command::new("mkfifo").arg(path).status().unwrap().success());
}

/// Replaces `path` with a symbolic link to a copy of it (same bytes).
fn symlink(path: &Path) {
    let copy = path.with_extension("copy");
    std::fs::rename(path, &copy).unwrap();
    std::os::unix::fs::symlink(&copy, path).unwrap();
}

/// Replaces `path` with a directory.
fn directory(path: &Path) {
    std::fs::remove_file(path).unwrap();
    std::fs::create_dir(path).unwrap();
}

/// Truncates `path` to half its size.
fn truncate(path: &Path) {
    let bytes = std::fs::read(path).unwrap();
    std::fs::write(path, &bytes[..bytes.len() / 2]).unwrap();
}

/// The model lines of a witness file, and the file.
fn witness_file(dir: &Path, base: &Base) -> Option<PathBuf> {
    if base.jobs {
        let id = counted_cubes(dir).into_iter().next()?;
        return Some(dir.join("proofs").join(id).join("claim-0000.models"));
    }
    let m = read_json(&dir.join("MANIFEST.json"));
    let name = claims(dir)
        .iter()
        .find_map(|c| c["models"].as_str().map(str::to_string))
        .filter(|_| blocking_claim(dir).is_some())
        .or_else(|| m["result"]["models"].as_str().map(str::to_string))?;
    Some(dir.join(name))
}

/// Edits the witness file's models: `edit` gets the model lines.
fn edit_witnesses(path: &Path, edit: impl FnOnce(&mut Vec<String>)) -> Option<()> {
    let content = std::fs::read_to_string(path).ok()?;
    let (comments, mut models): (Vec<String>, Vec<String>) = content
        .lines()
        .map(str::to_string)
        .partition(|l| l.starts_with('c'));
    if models.is_empty() {
        return None;
    }
    edit(&mut models);
    let mut all = comments;
    all.extend(models);
    std::fs::write(path, all.join("\n") + "\n").unwrap();
    Some(())
}

/// A mutation: its name, and what it does to a copy of a base directory
/// (`None` when it does not apply to that kind).
type Mutate = fn(&Path, &Base, &[Base]) -> Option<()>;

/// The first cube of a split run as jobs.
const CUBE: &str = "cube-00000";

fn mutations() -> Vec<(&'static str, Mutate)> {
    vec![
        ("forged blocking clause proven again", |dir, base, _| {
            if base.jobs {
                let id = counted_cubes(dir).into_iter().next()?;
                let proofs = dir.join("proofs").join(&id);
                forge(
                    &proofs.join("claim-0000.cnf"),
                    &proofs.join("claim-0000.lrat"),
                );
                let result = dir.join("results").join(format!("{id}.json"));
                let n = read_json(&result)["count"].as_u64()?;
                raise(&result, n);
                raise(&proofs.join("MANIFEST.json"), n);
                return Some(());
            }
            let claim = blocking_claim(dir)?;
            let cnf = dir.join(claim["cnf"].as_str()?);
            forge(&cnf, &dir.join(claim["proof"].as_str()?));
            raise(&dir.join("MANIFEST.json"), claim["count"].as_u64()?);
            Some(())
        }),
        ("blocking clause duplicated", |dir, base, _| {
            let cnf = if base.jobs {
                let id = counted_cubes(dir).into_iter().next()?;
                dir.join("proofs").join(id).join("claim-0000.cnf")
            } else {
                dir.join(blocking_claim(dir)?["cnf"].as_str()?)
            };
            let formula = std::fs::read_to_string(&cnf).unwrap();
            append_clause(&cnf, formula.lines().last()?);
            Some(())
        }),
        ("claim dropped from the MANIFEST", |dir, base, _| {
            if base.jobs {
                let path = dir.join("MANIFEST");
                let listed = std::fs::read_to_string(&path).unwrap();
                let mut lines: Vec<String> = listed.lines().map(str::to_string).collect();
                let last = lines.iter().rposition(|l| l.starts_with("cube-"))?;
                lines.remove(last);
                let cubes = lines.iter().position(|l| l.starts_with("# cubes "))?;
                let n: usize = lines[cubes][8..].trim().parse().ok()?;
                lines[cubes] = format!("# cubes {}", n - 1);
                std::fs::write(&path, lines.join("\n") + "\n").unwrap();
                return Some(());
            }
            if claims(dir).is_empty() {
                return None;
            }
            edit_json(&dir.join("MANIFEST.json"), |m| {
                m["claims"].as_array_mut().unwrap().pop();
            });
            Some(())
        }),
        ("claim file deleted", |dir, base, _| {
            let path = if base.jobs {
                dir.join("proofs").join(CUBE).join("claim-0000.cnf")
            } else {
                dir.join(claims(dir).first()?["cnf"].as_str()?)
            };
            std::fs::remove_file(path).unwrap();
            Some(())
        }),
        ("cube dropped", |dir, base, _| {
            if base.jobs {
                std::fs::remove_file(dir.join("results").join(format!("{CUBE}.json"))).unwrap();
                std::fs::remove_dir_all(dir.join("proofs").join(CUBE)).unwrap();
                return Some(());
            }
            let cube = claims(dir)
                .into_iter()
                .find(|c| !c["cube"].is_null() || !c["split"].is_null())?;
            for file in ["cnf", "proof"] {
                std::fs::remove_file(dir.join(cube[file].as_str()?)).unwrap();
            }
            edit_json(&dir.join("MANIFEST.json"), |m| {
                m["claims"]
                    .as_array_mut()
                    .unwrap()
                    .retain(|c| c["name"] != cube["name"]);
            });
            Some(())
        }),
        ("proofs swapped between claims", |dir, base, _| {
            let (a, b) = if base.jobs {
                let proofs = dir.join("proofs");
                (
                    proofs.join(CUBE).join("claim-0000.lrat"),
                    proofs.join("cube-00001").join("claim-0000.lrat"),
                )
            } else {
                // The longest proof and the shortest: two claims refuted
                // alike could take each other's proof and stay proven.
                let mut proofs: Vec<PathBuf> = claims(dir)
                    .iter()
                    .filter_map(|c| c["proof"].as_str().map(|p| dir.join(p)))
                    .collect();
                proofs.sort_by_key(|p| std::fs::metadata(p).map_or(0, |m| m.len()));
                if proofs.len() < 2 {
                    return None;
                }
                (proofs[0].clone(), proofs[proofs.len() - 1].clone())
            };
            let kept = a.with_extension("kept");
            std::fs::rename(&a, &kept).unwrap();
            std::fs::rename(&b, &a).unwrap();
            std::fs::rename(&kept, &b).unwrap();
            Some(())
        }),
        ("count edited", |dir, base, _| {
            if base.jobs {
                edit_json(&dir.join("results").join(format!("{CUBE}.json")), |r| {
                    r["count"] = json!(r["count"].as_u64().unwrap() + 1);
                });
                return Some(());
            }
            let claim = claims(dir).into_iter().find(|c| c["count"].is_u64())?;
            edit_json(&dir.join("MANIFEST.json"), |m| {
                for c in m["claims"].as_array_mut().unwrap() {
                    if c["name"] == claim["name"] {
                        c["count"] = json!(c["count"].as_u64().unwrap() + 1);
                    }
                }
            });
            Some(())
        }),
        ("weight edited", |dir, base, _| {
            if base.jobs {
                let path = dir.join("MANIFEST");
                let listed = std::fs::read_to_string(&path).unwrap();
                let line = listed.lines().find(|l| l.starts_with(CUBE))?.to_string();
                let mut words: Vec<String> = line.split(' ').map(str::to_string).collect();
                words[1] = (words[1].parse::<u64>().ok()? + 1).to_string();
                std::fs::write(&path, listed.replace(&line, &words.join(" "))).unwrap();
                return Some(());
            }
            let claim = claims(dir)
                .into_iter()
                .find(|c| !c["cube"].is_null() || !c["split"].is_null())?;
            edit_json(&dir.join("MANIFEST.json"), |m| {
                for c in m["claims"].as_array_mut().unwrap() {
                    if c["name"] == claim["name"] {
                        if c["cube"].is_array() {
                            c["cube"][1] = json!(c["cube"][1].as_u64().unwrap() + 1);
                        } else {
                            c["split"]["orbit"] = json!(c["split"]["orbit"].as_u64().unwrap() + 1);
                        }
                    }
                }
            });
            Some(())
        }),
        ("claim sentence edited", |dir, base, _| {
            let path = if base.jobs {
                dir.join("proofs").join(CUBE).join("MANIFEST.json")
            } else {
                dir.join("MANIFEST.json")
            };
            if read_json(&path)["claims"].as_array()?.is_empty() {
                return None;
            }
            edit_json(&path, |m| {
                let claim = &mut m["claims"][0]["claim"];
                *claim = json!(format!("{} and more", claim.as_str().unwrap()));
            });
            Some(())
        }),
        ("result edited", |dir, base, _| {
            let path = if base.jobs {
                dir.join("proofs").join(CUBE).join("MANIFEST.json")
            } else {
                dir.join("MANIFEST.json")
            };
            edit_json(&path, |m| {
                let result = &mut m["result"];
                match ["count", "value", "k"]
                    .into_iter()
                    .find(|k| result[*k].is_u64())
                {
                    Some(key) => result[key] = json!(result[key].as_u64().unwrap() + 1),
                    // No number: another file's digest.
                    None => result["source"][1] = json!("0".repeat(64)),
                }
            });
            Some(())
        }),
        ("result sentence edited", |dir, base, _| {
            let path = if base.jobs {
                dir.join("proofs").join(CUBE).join("MANIFEST.json")
            } else {
                dir.join("MANIFEST.json")
            };
            edit_json(&path, |m| {
                let sentence = &mut m["result"]["sentence"];
                let before = sentence.as_str().unwrap().to_string();
                let after = before.replace("exactly", "at least");
                *sentence = json!(if after == before {
                    format!("{before}, and more")
                } else {
                    after
                });
            });
            Some(())
        }),
        ("proof truncated", |dir, base, _| {
            let path = if base.jobs {
                dir.join("proofs").join(CUBE).join("claim-0000.lrat")
            } else {
                // The longest proof: a short one might keep its refutation.
                claims(dir)
                    .iter()
                    .filter_map(|c| c["proof"].as_str().map(|p| dir.join(p)))
                    .max_by_key(|p| std::fs::metadata(p).map_or(0, |m| m.len()))?
            };
            truncate(&path);
            Some(())
        }),
        ("witness edited", |dir, base, _| {
            let path = witness_file(dir, base)?;
            edit_witnesses(&path, |models| {
                let last = models.len() - 1;
                let words: Vec<&str> = models[last].split(' ').collect();
                models[last] = if words.len() > 1 {
                    words[1..].join(" ")
                } else {
                    "1 0".to_string()
                };
            })
        }),
        ("witness dropped", |dir, base, _| {
            let path = witness_file(dir, base)?;
            edit_witnesses(&path, |models| {
                models.pop();
            })
        }),
        ("witness file deleted", |dir, base, _| {
            std::fs::remove_file(witness_file(dir, base)?).unwrap();
            Some(())
        }),
        ("foreign MANIFEST", |dir, base, all| {
            // Another kind's: in place of this one's, or (a split) beside
            // the split's own.
            let others: Vec<&Base> = all.iter().filter(|b| !b.jobs).collect();
            let at = others.iter().position(|b| b.name == base.name).unwrap_or(0);
            let other = others[(at + 1) % others.len()];
            std::fs::copy(other.dir.join("MANIFEST.json"), dir.join("MANIFEST.json")).unwrap();
            Some(())
        }),
        ("FIFO in place of a file", |dir, base, _| {
            fifo(&special_target(dir, base, "proof"));
            Some(())
        }),
        ("symbolic link in place of a file", |dir, base, _| {
            symlink(&special_target(dir, base, "cnf"));
            Some(())
        }),
        ("directory in place of a file", |dir, base, _| {
            directory(&special_target(dir, base, "proof"));
            Some(())
        }),
        ("interrupted run", |dir, base, _| {
            if base.jobs {
                edit_json(&dir.join("results").join(format!("{CUBE}.json")), |r| {
                    r["complete"] = json!(false);
                    r["stopped"] = json!("interrupted");
                });
                return Some(());
            }
            edit_json(&dir.join("MANIFEST.json"), |m| {
                m["status"] = json!("interrupted");
            });
            Some(())
        }),
        ("time-limited run", |dir, base, _| {
            let path = if base.jobs {
                dir.join("proofs").join(CUBE).join("MANIFEST.json")
            } else {
                dir.join("MANIFEST.json")
            };
            edit_json(&path, |m| m["status"] = json!("time-limit"));
            Some(())
        }),
    ]
}

/// The file a FIFO, link or directory replaces: a claim's proof or
/// formula (`file`), or the MANIFEST of a directory without claims.
fn special_target(dir: &Path, base: &Base, file: &str) -> PathBuf {
    if base.jobs {
        let name = if file == "cnf" {
            "claim-0000.cnf"
        } else {
            "claim-0000.lrat"
        };
        return dir.join("proofs").join(CUBE).join(name);
    }
    match claims(dir).first() {
        Some(c) => dir.join(c[file].as_str().unwrap()),
        None => dir.join("MANIFEST.json"),
    }
}

/// Runs `boardsat args`, killed after `seconds` (then `None`).
fn within(args: &[&str], seconds: u64) -> Option<Output> {
    let child = common::boardsat()
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let id = child.id();
    let (done, waiting) = std::sync::mpsc::channel::<()>();
    let watchdog = std::thread::spawn(move || {
        let late = waiting.recv_timeout(Duration::from_secs(seconds)).is_err();
        if late {
            let _ = Command::new("kill")
                .args(["-KILL", &id.to_string()])
                .status();
        }
        late
    });
    let out = child.wait_with_output().unwrap();
    let _ = done.send(());
    let late = watchdog.join().unwrap();
    (!late).then_some(out)
}

/// Why a verification that should fail did not, or `None`: exit 1 with
/// a last line `NOT verified: …`, or exit 2 with one `error:` line; no
/// panic; within the timeout.
fn refusal(args: &[&str]) -> Option<String> {
    let Some(o) = within(args, 60) else {
        return Some("no answer within 60 s".to_string());
    };
    let (out, err) = (text(&o.stdout), text(&o.stderr));
    if err.contains("panicked") {
        return Some(format!("a panic: {err}"));
    }
    match o.status.code() {
        Some(1)
            if out
                .lines()
                .last()
                .is_some_and(|l| l.starts_with("NOT verified: ")) =>
        {
            if std::env::var_os("BOARDSAT_SHOW_REFUSALS").is_some() {
                eprintln!("{args:?}: {}", out.lines().last().unwrap_or(""));
            }
            None
        }
        Some(2) if err.lines().filter(|l| l.starts_with("error: ")).count() == 1 => None,
        code => Some(format!("exit {code:?}: {out}{err}")),
    }
}

#[test]
fn every_mutation_of_every_proof_directory_is_rejected() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    let bases = bases(root);
    let cake = common::cake_lpr();
    let fake = common::script(root, "accepts-everything", "echo 's VERIFIED UNSAT'");
    let (cake, fake) = (
        cake.as_ref().map(|p| p.to_str().unwrap().to_string()),
        fake.to_str().unwrap().to_string(),
    );
    // Every base verifies as built, and so does a copy left alone (the
    // control: what the mutations break is theirs).
    for base in &bases {
        let copy = root.join("cases").join(format!("{}-control", base.name));
        copy_dir(&base.dir, &copy);
        let o = within(&["verify", copy.to_str().unwrap()], 120).expect("verify hung");
        let out = text(&o.stdout);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{}: {out}{}",
            base.name,
            text(&o.stderr)
        );
        assert!(
            out.lines().last().unwrap().starts_with("verified: "),
            "{}: {out}",
            base.name
        );
        // cake_lpr accepts every claim of every kind, and says so.
        if let Some(cake) = &cake {
            let args = ["verify", copy.to_str().unwrap(), "--checker", cake];
            let o = within(&args, 120).expect("verify --checker hung");
            let out = text(&o.stdout);
            assert_eq!(o.status.code(), Some(0), "{}: {out}", base.name);
            let last = out.lines().last().unwrap();
            assert!(last.starts_with("verified: "), "{}: {out}", base.name);
            assert!(last.contains("cake_lpr ("), "{}: {last}", base.name);
        }
    }
    let mutations = mutations();
    let cases: Vec<(usize, usize)> = (0..bases.len())
        .flat_map(|b| (0..mutations.len()).map(move |m| (b, m)))
        .collect();
    let next = Mutex::new(cases.into_iter());
    let failures = Mutex::new(Vec::new());
    let run = Mutex::new(0usize);
    let workers = 2;
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| loop {
                let Some((b, m)) = next.lock().unwrap().next() else {
                    return;
                };
                let (base, (name, mutate)) = (&bases[b], &mutations[m]);
                let dir = root.join("cases").join(format!("{}-{m:02}", base.name));
                copy_dir(&base.dir, &dir);
                if mutate(&dir, base, &bases).is_none() {
                    continue;
                }
                *run.lock().unwrap() += 1;
                let dir = dir.to_str().unwrap();
                let mut commands =
                    vec![vec!["verify", dir], vec!["verify", dir, "--checker", &fake]];
                if let Some(cake) = &cake {
                    commands.push(vec!["verify", dir, "--checker", cake]);
                }
                if base.jobs {
                    commands.push(vec!["merge", "--verify", dir]);
                    commands.push(vec!["merge", "--verify", dir, "--checker", &fake]);
                }
                for args in commands {
                    if let Some(why) = refusal(&args) {
                        failures.lock().unwrap().push(format!(
                            "{} / {name} / {}: {why}",
                            base.name,
                            args.join(" ")
                        ));
                    }
                }
            });
        }
    });
    let run = run.into_inner().unwrap();
    println!(
        "mutation suite: {} kinds of proof directory x {} mutations = {} pairs, {run} cases run (the others do not apply)",
        bases.len(),
        mutations.len(),
        bases.len() * mutations.len()
    );
    eprintln!(
        "mutation suite: {} kinds x {} mutations, {run} cases run",
        bases.len(),
        mutations.len()
    );
    let failures = failures.into_inner().unwrap();
    assert!(
        failures.is_empty(),
        "{} of {run} mutations not rejected:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(run >= bases.len() * 10, "only {run} cases ran");
}
