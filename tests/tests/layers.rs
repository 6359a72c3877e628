//! The layer order of every crate, as its root doc writes it, holds: a
//! module imports only from modules on its own line of the list or a line
//! above, by their path (`crate::search::session::Session`), never through
//! the root's re-exports, which are for outside users. A module directory
//! whose `mod.rs` has a list of its own (`search/`, `task/`) is checked the
//! same way inside. A list that leaves out a module fails too, so a new
//! module cannot dodge the check.
//!
//! The list is the numbered lines after `## Layers` in the module doc:
//! ``1. `stop`, `files` — what they are``; `this one` names the items of
//! the `mod.rs` itself.

use std::{
    collections::{BTreeMap, BTreeSet},
    fs,
    path::{Path, PathBuf},
};

/// The crates checked: their source directory and root file.
const CRATES: [(&str, &str); 9] = [
    ("crates/encode/src", "lib.rs"),
    ("crates/lrat/src", "lib.rs"),
    ("crates/solve/src", "lib.rs"),
    ("crates/jobs/src", "lib.rs"),
    ("crates/report/src", "lib.rs"),
    ("crates/proof/src", "lib.rs"),
    ("crates/bench/src", "lib.rs"),
    ("crates/cli/src", "main.rs"),
    ("python/src", "lib.rs"),
];

/// The name `this one` stands for in a list: the items of the module
/// itself.
const SELF: &str = "self";

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the tests crate sits in the workspace")
        .to_path_buf()
}

/// A source file: its module path from the crate root and its text before
/// the unit tests.
struct Source {
    module: Vec<String>,
    path: PathBuf,
    code: String,
    /// Whether it is a `mod.rs` (or the root), whose children are the
    /// modules of its directory.
    is_dir: bool,
}

fn sources(dir: &Path, root: &str) -> Vec<Source> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in fs::read_dir(&d).expect("readable source directory") {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            if path.extension().and_then(|e| e.to_str()) != Some("rs") {
                continue;
            }
            let rel = path.strip_prefix(dir).expect("under the source directory");
            let mut module: Vec<String> = rel
                .with_extension("")
                .iter()
                .map(|c| c.to_string_lossy().into_owned())
                .collect();
            let file = module.pop().unwrap_or_default();
            let is_dir = file == "mod" || (module.is_empty() && format!("{file}.rs") == root);
            if !is_dir {
                module.push(file);
            }
            let text = fs::read_to_string(&path).expect("readable source file");
            out.push(Source {
                module,
                path,
                code: before_unit_tests(&text),
                is_dir,
            });
        }
    }
    out
}

/// The text before a trailing `#[cfg(test)] mod tests`.
fn before_unit_tests(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let end = lines
        .windows(2)
        .position(|w| w[0].trim() == "#[cfg(test)]" && w[1].trim_start().starts_with("mod "))
        .unwrap_or(lines.len());
    lines[..end].join("\n")
}

/// The layer list of a module doc: name → level (from 1).
fn layers(text: &str) -> Option<BTreeMap<String, usize>> {
    let mut lines = text.lines().map(str::trim);
    lines.find(|l| *l == "//! ## Layers")?;
    let mut out = BTreeMap::new();
    let mut started = false;
    for line in lines {
        if line == "//!" {
            if started {
                break;
            }
            continue;
        }
        let Some(item) = line.strip_prefix("//! ") else {
            break;
        };
        let Some((number, rest)) = item.split_once(". ") else {
            if started {
                break;
            }
            continue;
        };
        let Ok(level) = number.parse::<usize>() else {
            if started {
                break;
            }
            continue;
        };
        started = true;
        let names = rest.split(" — ").next().unwrap_or(rest);
        if names.starts_with("this one") {
            out.insert(SELF.to_string(), level);
        }
        for (i, part) in names.split('`').enumerate() {
            if i % 2 == 1 {
                out.insert(part.to_string(), level);
            }
        }
    }
    started.then_some(out)
}

/// The modules a file declares (`mod x;`, `pub mod x;`), tests aside.
fn declared(code: &str) -> BTreeSet<String> {
    code.lines()
        .map(str::trim)
        .filter_map(|l| {
            let l = l.strip_prefix("pub ").unwrap_or(l);
            let l = l.strip_prefix("pub(crate) ").unwrap_or(l);
            l.strip_prefix("mod ")?
                .strip_suffix(';')
                .map(str::to_string)
        })
        .collect()
}

/// The names of the items a file defines at its top level.
fn items(code: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for line in code.lines() {
        let mut words = line.split_whitespace().skip_while(|w| w.starts_with("pub"));
        if let (Some(kind), Some(name)) = (words.next(), words.next()) {
            if ["struct", "enum", "fn", "const", "type", "trait", "static"].contains(&kind) {
                let name: String = name
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                out.insert(name);
            }
        }
    }
    out
}

/// `#[macro_export]` macros: their name → the module that defines them.
fn macros(sources: &[Source]) -> BTreeMap<String, Vec<String>> {
    let mut out = BTreeMap::new();
    for s in sources {
        let lines: Vec<&str> = s.code.lines().collect();
        for w in lines.windows(2) {
            if w[0].trim() == "#[macro_export]" {
                if let Some(name) = w[1].trim().strip_prefix("macro_rules! ") {
                    let name = name.trim_end_matches(['{', ' ']).to_string();
                    out.insert(name, s.module.clone());
                }
            }
        }
    }
    out
}

/// Code without comment lines.
fn code_lines(code: &str) -> String {
    code.lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The top-level pieces of a use tree's list, split at commas outside
/// braces.
fn split_top(list: &str) -> Vec<String> {
    let (mut out, mut depth, mut current) = (Vec::new(), 0, String::new());
    for c in list.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            _ => {}
        }
        if c == ',' && depth == 0 {
            out.push(std::mem::take(&mut current));
        } else {
            current.push(c);
        }
    }
    out.push(current);
    out.into_iter()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect()
}

/// Every path a use tree names, each as its segments after `prefix`.
fn expand(tree: &str, prefix: &[String]) -> Vec<Vec<String>> {
    let tree = tree.trim();
    if let Some(open) = tree.find('{') {
        let base: Vec<String> = tree[..open]
            .split("::")
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .collect();
        let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
        let mut here = prefix.to_vec();
        here.extend(base);
        return split_top(inner)
            .iter()
            .flat_map(|t| expand(t, &here))
            .collect();
    }
    let path = tree.split(" as ").next().unwrap_or(tree);
    let mut out = prefix.to_vec();
    out.extend(
        path.split("::")
            .filter(|s| !s.is_empty() && *s != "self")
            .map(str::to_string),
    );
    vec![out]
}

/// The crate paths a file refers to (`crate::…`, `super::…`, `self::…`),
/// each from the crate root.
fn references(source: &Source) -> Vec<Vec<String>> {
    let code = code_lines(&source.code);
    let own = &source.module;
    let parent = if source.is_dir {
        own[..own.len().saturating_sub(1)].to_vec()
    } else {
        own[..own.len() - 1].to_vec()
    };
    let mut out = Vec::new();
    let mut rest = code.as_str();
    // `use` trees first, then inline paths.
    let mut inline = String::new();
    while let Some(at) = rest.find("use ") {
        inline.push_str(&rest[..at]);
        let after = &rest[at + 4..];
        let end = after.find(';').unwrap_or(after.len());
        let tree = &after[..end];
        let resolved = if let Some(t) = tree.strip_prefix("crate::") {
            Some((Vec::new(), t))
        } else if let Some(t) = tree.strip_prefix("super::") {
            Some((parent.clone(), t))
        } else {
            tree.strip_prefix("self::").map(|t| (own.clone(), t))
        };
        if let Some((base, t)) = resolved {
            out.extend(expand(t, &base));
        }
        rest = &after[end..];
    }
    inline.push_str(rest);
    for (at, _) in inline.match_indices("crate::") {
        let path: Vec<String> = inline[at + 7..]
            .split("::")
            .map(|s| {
                s.chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect::<String>()
            })
            .take_while(|s| !s.is_empty())
            .collect();
        out.push(path);
    }
    out
}

/// Every violation of the layer lists of the crate in `dir`.
fn violations(dir: &Path, root: &str) -> Vec<String> {
    let sources = sources(dir, root);
    let macros = macros(&sources);
    // The modules with a list: their path → (list, items of the file).
    let mut lists = BTreeMap::new();
    let mut problems = Vec::new();
    for s in sources.iter().filter(|s| s.is_dir) {
        let Some(list) = layers(&s.code) else {
            if s.module.is_empty() {
                problems.push(format!("{}: no '## Layers' list", s.path.display()));
            }
            continue;
        };
        for module in declared(&s.code) {
            if !list.contains_key(&module) {
                problems.push(format!(
                    "{}: module `{module}` is not in the layer list",
                    s.path.display()
                ));
            }
        }
        lists.insert(s.module.clone(), (list, items(&s.code)));
    }
    for s in &sources {
        for path in references(s) {
            if let Some(problem) = check(s, &path, &lists, &macros) {
                problems.push(format!("{}: {problem}", s.path.display()));
            }
        }
    }
    problems.sort();
    problems.dedup();
    problems
}

type Lists = BTreeMap<Vec<String>, (BTreeMap<String, usize>, BTreeSet<String>)>;

/// What is wrong with `source` referring to `path`, if anything.
fn check(
    source: &Source,
    path: &[String],
    lists: &Lists,
    macros: &BTreeMap<String, Vec<String>>,
) -> Option<String> {
    let own = &source.module;
    let common = own.iter().zip(path).take_while(|(a, b)| a == b).count();
    let parent = &own[..common];
    let (list, parent_items) = lists.get(parent)?;
    let shown = format!("crate::{}", path.join("::"));
    // The importer's branch below the parent: itself when it is the
    // parent's own file.
    let from = own.get(common).map_or(SELF, String::as_str);
    let to = path.get(common)?;
    let level_of = |name: &str| list.get(name).copied();
    let from_level = level_of(from)?;
    let to_level = if let Some(level) = level_of(to) {
        level
    } else if parent_items.contains(to) && list.contains_key(SELF) {
        list[SELF]
    } else if let Some(module) = macros.get(to) {
        match module.get(common).and_then(|m| level_of(m)) {
            Some(level) => level,
            None => return Some(format!("{shown}: a macro outside the layer list")),
        }
    } else {
        return Some(format!(
            "{shown}: `{to}` is not a module of the layer list (import by the module's path, not a re-export)"
        ));
    };
    (to_level > from_level).then(|| {
        format!("`{from}` (layer {from_level}) imports {shown} from layer {to_level} above it")
    })
}

#[test]
fn every_crate_imports_down_its_layer_list() {
    let root = workspace();
    let mut problems = Vec::new();
    for (dir, file) in CRATES {
        problems.extend(violations(&root.join(dir), file));
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn an_upward_import_is_caught() {
    let list = layers("//! ## Layers\n//!\n//! 1. `low` — below\n//! 2. `high`, `side` — above\n")
        .expect("a list");
    assert_eq!(list.get("low"), Some(&1));
    assert_eq!(list.get("side"), Some(&2));
    let lists: Lists = [(Vec::new(), (list, BTreeSet::new()))]
        .into_iter()
        .collect();
    let low = Source {
        module: vec!["low".to_string()],
        path: PathBuf::from("low.rs"),
        code: "use crate::{high::Thing, low::Other};\nfn f() { crate::side::g(); }\n".to_string(),
        is_dir: false,
    };
    let found: Vec<String> = references(&low)
        .iter()
        .filter_map(|p| check(&low, p, &lists, &BTreeMap::new()))
        .collect();
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(found[0].contains("crate::high::Thing"), "{found:?}");
    // A re-export at the root is not a module of the list.
    let reexport = Source {
        code: "use crate::Thing;\n".to_string(),
        ..low
    };
    let found: Vec<String> = references(&reexport)
        .iter()
        .filter_map(|p| check(&reexport, p, &lists, &BTreeMap::new()))
        .collect();
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].contains("not a module"), "{found:?}");
}
