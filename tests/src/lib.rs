//! Shared helpers for the end-to-end tests: brute-force oracles that share no
//! code with the encoder, and small constructors for solvers and instances.
//!
//! | item | role |
//! |---|---|
//! | [`Graph`] | the attack graph of a piece on a board, as bitmasks, from coordinates alone |
//! | [`Graph::independence_number`], [`Graph::count_independent_sets`] | independence by branch and bound |
//! | [`Graph::domination_number`], [`Graph::minimum_dominating_sets`] | (independent) domination by branching on an uncovered square |
//! | [`Graph::count_subsets`] | exhaustive search over all subsets, for tiny boards |
//! | [`backend`], [`default_backend`] | fresh embedded solvers |
//! | [`pigeonhole`] | a hard UNSAT family for time-limit tests |
//! | [`Graph::coverage`] | how many pieces attack each square |
//! | [`xml_elements`] | a tiny well-formedness check for the SVG figures |
//!
//! Boards have at most 64 squares, so a set of squares is a `u64` with bit
//! `r·cols + c` for square `(r, c)`.

use std::collections::HashSet;

use boardsat_encode::{Piece, Placement, Square};
use boardsat_solve::{Backend, SolverKind};
use rustsat::types::{Lit, Var};

/// The attack graph of `piece` on a `rows × cols` board, built from
/// coordinate arithmetic only (no board lines, no attack sets of the
/// encoder). Sliders are not blocked by other pieces, as in the classic
/// puzzles.
#[derive(Clone, Debug)]
pub struct Graph {
    rows: usize,
    cols: usize,
    /// `closed[i]`: square `i` and every square a piece on `i` attacks.
    closed: Vec<u64>,
}

/// Whether `piece` on `(r1, c1)` attacks `(r2, c2)` on an empty board.
fn attacks(piece: Piece, (r1, c1): (usize, usize), (r2, c2): (usize, usize)) -> bool {
    if (r1, c1) == (r2, c2) {
        return false;
    }
    let dr = r1.abs_diff(r2);
    let dc = c1.abs_diff(c2);
    let rook = r1 == r2 || c1 == c2;
    let bishop = dr == dc;
    match piece {
        Piece::Queen => rook || bishop,
        Piece::Rook => rook,
        Piece::Bishop => bishop,
        Piece::Knight => dr * dc == 2,
        Piece::King => dr <= 1 && dc <= 1,
    }
}

fn bits(mut mask: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if mask == 0 {
            return None;
        }
        let i = mask.trailing_zeros() as usize;
        mask &= mask - 1;
        Some(i)
    })
}

fn count(mask: u64) -> usize {
    mask.count_ones() as usize
}

impl Graph {
    /// The graph of `piece` on `rows × cols` (at most 64 squares).
    ///
    /// # Panics
    ///
    /// When the board has more than 64 squares.
    #[must_use]
    pub fn new(rows: usize, cols: usize, piece: Piece) -> Self {
        assert!(
            rows * cols <= 64,
            "bitmask oracle handles at most 64 squares"
        );
        let coords: Vec<(usize, usize)> = (0..rows)
            .flat_map(|r| (0..cols).map(move |c| (r, c)))
            .collect();
        let closed = coords
            .iter()
            .enumerate()
            .map(|(i, &a)| {
                coords
                    .iter()
                    .enumerate()
                    .filter(|&(_, &b)| attacks(piece, a, b))
                    .fold(1u64 << i, |m, (j, _)| m | 1 << j)
            })
            .collect();
        Graph { rows, cols, closed }
    }

    /// Number of squares.
    #[must_use]
    pub fn n_squares(&self) -> usize {
        self.rows * self.cols
    }

    fn all(&self) -> u64 {
        if self.n_squares() == 64 {
            u64::MAX
        } else {
            (1u64 << self.n_squares()) - 1
        }
    }

    fn open(&self, i: usize) -> u64 {
        self.closed[i] & !(1 << i)
    }

    /// The bitmask of a placement.
    ///
    /// # Panics
    ///
    /// When a square is off the board.
    #[must_use]
    pub fn mask(&self, placement: &Placement) -> u64 {
        placement.squares().iter().fold(0, |m, sq| {
            assert!(sq.row < self.rows && sq.col < self.cols, "{sq} off board");
            m | 1 << (sq.row * self.cols + sq.col)
        })
    }

    /// The placement of a bitmask.
    #[must_use]
    pub fn placement(&self, mask: u64) -> Placement {
        Placement::new(
            bits(mask)
                .map(|i| Square::new(i / self.cols, i % self.cols))
                .collect(),
        )
    }

    /// Whether no two squares of `mask` attack each other.
    #[must_use]
    pub fn is_independent(&self, mask: u64) -> bool {
        bits(mask).all(|i| self.open(i) & mask == 0)
    }

    /// Whether every square is in `mask` or attacked from it.
    #[must_use]
    pub fn dominates(&self, mask: u64) -> bool {
        bits(mask).fold(0, |m, i| m | self.closed[i]) == self.all()
    }

    /// An upper bound on the independence number of the subgraph on
    /// `avail`: the number of cliques in a greedy clique cover.
    fn clique_cover(&self, mut avail: u64) -> usize {
        let mut cliques = 0;
        while avail != 0 {
            let v = avail.trailing_zeros() as usize;
            let mut candidates = self.open(v) & avail;
            avail &= !(1 << v);
            while candidates != 0 {
                let u = candidates.trailing_zeros() as usize;
                avail &= !(1 << u);
                candidates &= self.open(u);
            }
            cliques += 1;
        }
        cliques
    }

    /// The largest number of pairwise non-attacking pieces (branch and
    /// bound: a maximum independent set meets the closed neighbourhood of
    /// any square still available, else that square could be added).
    #[must_use]
    pub fn independence_number(&self) -> usize {
        let mut best = 0;
        self.max_independent(self.all(), 0, &mut best);
        best
    }

    fn max_independent(&self, avail: u64, size: usize, best: &mut usize) {
        if avail == 0 {
            *best = (*best).max(size);
            return;
        }
        if size + self.clique_cover(avail) <= *best {
            return;
        }
        // Branch on the square with the fewest available neighbours.
        let v = bits(avail)
            .min_by_key(|&i| count(self.closed[i] & avail))
            .unwrap_or(0);
        let mut excluded = 0u64;
        for w in bits(self.closed[v] & avail) {
            self.max_independent(avail & !self.closed[w] & !excluded, size + 1, best);
            excluded |= 1 << w;
        }
    }

    /// The number of independent sets of exactly `k` squares (include /
    /// exclude on the lowest available square, pruned by the clique cover).
    #[must_use]
    pub fn count_independent_sets(&self, k: usize) -> u64 {
        self.count_independent(self.all(), k)
    }

    fn count_independent(&self, avail: u64, k: usize) -> u64 {
        if k == 0 {
            return 1;
        }
        if count(avail) < k || self.clique_cover(avail) < k {
            return 0;
        }
        let v = avail.trailing_zeros() as usize;
        let without = avail & !(1 << v);
        self.count_independent(avail & !self.closed[v], k - 1) + self.count_independent(without, k)
    }

    /// The fewest pieces that occupy or attack every square; with
    /// `independent`, pieces that also do not attack each other.
    #[must_use]
    pub fn domination_number(&self, independent: bool) -> usize {
        (0..=self.n_squares())
            .find(|&k| {
                let mut found = HashSet::new();
                let search = Dominate {
                    k,
                    independent,
                    want: Want::First,
                };
                self.dominate(search, 0, 0, self.all(), &mut found);
                !found.is_empty()
            })
            .unwrap_or(self.n_squares())
    }

    /// Every (independent) dominating set of exactly
    /// `domination_number(independent)` squares, as bitmasks.
    #[must_use]
    pub fn minimum_dominating_sets(&self, independent: bool) -> HashSet<u64> {
        let k = self.domination_number(independent);
        let mut found = HashSet::new();
        let search = Dominate {
            k,
            independent,
            want: Want::All,
        };
        self.dominate(search, 0, 0, self.all(), &mut found);
        found
    }

    /// Depth-first search for dominating sets of at most `k` squares:
    /// some square of the closed neighbourhood of an uncovered square must
    /// be chosen; branch on the uncovered square with the fewest choices.
    /// Every dominating set with no dominating proper subset is reached.
    fn dominate(
        &self,
        search: Dominate,
        chosen: u64,
        covered: u64,
        allowed: u64,
        found: &mut HashSet<u64>,
    ) {
        let Dominate {
            k,
            independent,
            want,
        } = search;
        if want == Want::First && !found.is_empty() {
            return;
        }
        let uncovered = self.all() & !covered;
        if uncovered == 0 {
            found.insert(chosen);
            return;
        }
        let size = count(chosen);
        if size >= k {
            return;
        }
        let reach = bits(allowed)
            .map(|i| count(self.closed[i] & uncovered))
            .max()
            .unwrap_or(0);
        if reach == 0 || size + count(uncovered).div_ceil(reach) > k {
            return;
        }
        let u = bits(uncovered)
            .min_by_key(|&i| count(self.closed[i] & allowed))
            .unwrap_or(0);
        for w in bits(self.closed[u] & allowed) {
            let next_allowed = if independent {
                allowed & !self.closed[w]
            } else {
                allowed & !(1 << w)
            };
            self.dominate(
                search,
                chosen | 1 << w,
                covered | self.closed[w],
                next_allowed,
                found,
            );
        }
    }

    /// The number of subsets of the board satisfying `keep`, by trying all
    /// of them.
    ///
    /// # Panics
    ///
    /// When the board has more than 24 squares.
    #[must_use]
    pub fn count_subsets(&self, keep: impl Fn(u64) -> bool) -> u64 {
        assert!(
            self.n_squares() <= 24,
            "exhaustive search is for tiny boards"
        );
        let n = u64::try_from(self.n_squares()).unwrap_or(64);
        (0..1u64 << n).filter(|&m| keep(m)).map(|_| 1).sum()
    }

    /// For each square (bit order), how many squares of `mask` attack it.
    #[must_use]
    pub fn coverage(&self, mask: u64) -> Vec<usize> {
        (0..self.n_squares())
            .map(|j| bits(mask).filter(|&i| self.open(i) >> j & 1 == 1).count())
            .collect()
    }
}

/// The elements of an XML document, as (name, attributes, text up to the
/// next tag), after checking that it is well formed: one root, every start
/// tag closed in order, attribute values quoted. Enough for the SVG that
/// boardsat and plotters write (no CDATA, no DTD); comments and `<?…?>`
/// are skipped.
///
/// # Errors
///
/// What is wrong, with the byte offset.
pub fn xml_elements(doc: &str) -> Result<Vec<XmlElement>, String> {
    let mut out = Vec::new();
    // The open elements: name and index in `out`.
    let mut open: Vec<(String, usize)> = Vec::new();
    let mut roots = 0;
    let mut rest = doc;
    let offset = |rest: &str| doc.len() - rest.len();
    while let Some(lt) = rest.find('<') {
        if let Some(&(_, i)) = open.last() {
            let inner: &mut XmlElement = &mut out[i];
            inner.text.push_str(&unescape(&rest[..lt])?);
        } else if !rest[..lt].trim().is_empty() {
            return Err(format!("text outside the root at {}", offset(rest)));
        }
        rest = &rest[lt..];
        for (start, end) in [("<!--", "-->"), ("<?", "?>")] {
            if rest.starts_with(start) {
                let close = rest
                    .find(end)
                    .ok_or_else(|| format!("unclosed {start} at {}", offset(rest)))?;
                rest = &rest[close + end.len()..];
            }
        }
        if !rest.starts_with('<') {
            continue;
        }
        let gt = tag_end(rest).ok_or_else(|| format!("unclosed tag at {}", offset(rest)))?;
        let tag = &rest[1..gt];
        if let Some(name) = tag.strip_prefix('/') {
            match open.pop() {
                Some((top, _)) if top == name.trim() => {}
                top => return Err(format!("</{name}> closes {top:?} at {}", offset(rest))),
            }
        } else {
            let self_closing = tag.ends_with('/');
            let tag = tag.trim_end_matches('/');
            let (name, attributes) =
                parse_tag(tag).map_err(|e| format!("{e} at {}", offset(rest)))?;
            if open.is_empty() {
                roots += 1;
            }
            if !self_closing {
                open.push((name.clone(), out.len()));
            }
            out.push(XmlElement {
                name,
                attributes,
                text: String::new(),
            });
        }
        rest = &rest[gt + 1..];
    }
    if !rest.trim().is_empty() {
        return Err("text after the root".to_string());
    }
    if let Some((top, _)) = open.pop() {
        return Err(format!("<{top}> is never closed"));
    }
    if roots != 1 {
        return Err(format!("{roots} root elements"));
    }
    Ok(out)
}

/// An element of [`xml_elements`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct XmlElement {
    /// The tag name.
    pub name: String,
    /// The attributes, in order.
    pub attributes: Vec<(String, String)>,
    /// The text between this tag and the next one.
    pub text: String,
}

impl XmlElement {
    /// The value of attribute `name`.
    #[must_use]
    pub fn attribute(&self, name: &str) -> Option<&str> {
        self.attributes
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Text with XML's five entities replaced; any other `&` is an error.
fn unescape(text: &str) -> Result<String, String> {
    let mut out = String::new();
    let mut rest = text;
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        rest = &rest[amp..];
        let (entity, c) = [
            ("&lt;", '<'),
            ("&gt;", '>'),
            ("&amp;", '&'),
            ("&quot;", '"'),
            ("&apos;", '\''),
        ]
        .into_iter()
        .find(|(e, _)| rest.starts_with(e))
        .ok_or_else(|| format!("unknown entity in {text:?}"))?;
        out.push(c);
        rest = &rest[entity.len()..];
    }
    out.push_str(rest);
    Ok(out)
}

/// The index of the `>` that ends the tag at the start of `s`, skipping
/// quoted attribute values.
fn tag_end(s: &str) -> Option<usize> {
    let mut quote = None;
    for (i, c) in s.char_indices().skip(1) {
        match (quote, c) {
            (None, '"' | '\'') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            (None, '>') => return Some(i),
            (None, '<') => return None,
            _ => {}
        }
    }
    None
}

/// A start tag's name and attributes (`name="value"` or `name='value'`).
fn parse_tag(tag: &str) -> Result<(String, Vec<(String, String)>), String> {
    let tag = tag.trim();
    let name_end = tag.find(char::is_whitespace).unwrap_or(tag.len());
    let name = &tag[..name_end];
    if name.is_empty()
        || !name
            .chars()
            .all(|c| c.is_alphanumeric() || ":-_".contains(c))
    {
        return Err(format!("bad tag name {name:?}"));
    }
    let mut attributes = Vec::new();
    let mut rest = tag[name_end..].trim_start();
    while !rest.is_empty() {
        let eq = rest
            .find('=')
            .ok_or_else(|| format!("attribute without a value in <{name}>"))?;
        let key = rest[..eq].trim();
        let after = rest[eq + 1..].trim_start();
        let quote = after
            .chars()
            .next()
            .filter(|c| *c == '"' || *c == '\'')
            .ok_or_else(|| format!("unquoted attribute {key} in <{name}>"))?;
        let close = after[1..]
            .find(quote)
            .ok_or_else(|| format!("unclosed attribute {key} in <{name}>"))?;
        if attributes.iter().any(|(k, _)| k == key) {
            return Err(format!("attribute {key} twice in <{name}>"));
        }
        attributes.push((key.to_string(), unescape(&after[1..=close])?));
        rest = after[close + 2..].trim_start();
    }
    Ok((name.to_string(), attributes))
}

/// A fresh solver of `kind`.
///
/// # Panics
///
/// When the backend is not built in.
#[must_use]
pub fn backend(kind: SolverKind) -> Box<dyn Backend> {
    kind.create()
        .unwrap_or_else(|e| panic!("cannot create {kind}: {e}"))
}

/// A fresh solver of the default embedded kind.
#[must_use]
pub fn default_backend() -> Box<dyn Backend> {
    backend(SolverKind::default_embedded())
}

/// The pigeonhole principle: `pigeons` pigeons in `holes` holes, each
/// pigeon in some hole, no hole with two pigeons. Variable `p·holes + h`
/// says pigeon `p` sits in hole `h`; when `selector` is given, the last
/// pigeon's "some hole" clause is guarded by it, so the instance is hard
/// only under the assumption `selector`.
#[must_use]
pub fn pigeonhole(pigeons: u32, holes: u32, selector: Option<Lit>) -> Vec<Vec<Lit>> {
    let x = |p: u32, h: u32| Var::new(p * holes + h).pos_lit();
    let mut clauses = Vec::new();
    for p in 0..pigeons {
        let mut clause: Vec<Lit> = (0..holes).map(|h| x(p, h)).collect();
        if p + 1 == pigeons {
            clause.extend(selector.map(|s| !s));
        }
        clauses.push(clause);
    }
    for h in 0..holes {
        for p in 0..pigeons {
            for q in p + 1..pigeons {
                clauses.push(vec![!x(p, h), !x(q, h)]);
            }
        }
    }
    clauses
}

/// What [`Graph::dominate`] looks for: dominating sets of at most `k`
/// squares (independent ones with `independent`), the first or all.
#[derive(Clone, Copy, Debug)]
struct Dominate {
    k: usize,
    independent: bool,
    want: Want,
}

/// Whether a search stops at its first find.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Want {
    /// One is enough.
    First,
    /// Every one.
    All,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn oracle_knows_small_queen_facts() {
        // Eight queens: 92 solutions (OEIS A000170), independence number 8.
        let g = Graph::new(8, 8, Piece::Queen);
        assert_eq!(g.count_independent_sets(8), 92);
        assert_eq!(g.independence_number(), 8);
        // gamma(Q_4) = 2 with 12 minimum dominating sets (A075458, A002564).
        let g = Graph::new(4, 4, Piece::Queen);
        assert_eq!(g.domination_number(false), 2);
        assert_eq!(g.minimum_dominating_sets(false).len(), 12);
        assert!(g
            .minimum_dominating_sets(false)
            .iter()
            .all(|&m| g.dominates(m)));
    }

    #[test]
    fn xml_check_accepts_and_rejects() {
        let doc = r#"<?xml version="1.0"?><svg a="1"><!-- c --><g><text x='2'>hi &gt; &amp;</text></g><rect/></svg>"#;
        let elements = xml_elements(doc).unwrap();
        let names: Vec<&str> = elements.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, ["svg", "g", "text", "rect"]);
        assert_eq!(elements[2].text, "hi > &");
        assert_eq!(elements[2].attribute("x"), Some("2"));
        for bad in [
            "<svg><g></svg>",
            "<svg></g>",
            "<svg a=1></svg>",
            "<svg/><svg/>",
            "<svg a=\"1\" a=\"2\"/>",
            "<svg",
            "text<svg/>",
            "<svg>a & b</svg>",
        ] {
            assert!(xml_elements(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn coverage_counts_attackers() {
        // Two rooks on a 3x3 board at (0,0) and (2,2): (0,2) and (2,0) are
        // attacked by both, (1,1) by none, each rook's square by none.
        let g = Graph::new(3, 3, Piece::Rook);
        assert_eq!(g.coverage(1 | 1 << 8), [0, 1, 2, 1, 0, 1, 2, 1, 0]);
    }

    #[test]
    fn mask_and_placement_round_trip() {
        let g = Graph::new(3, 5, Piece::King);
        let mask = 0b101_0000_0100_0001;
        assert_eq!(g.mask(&g.placement(mask)), mask);
    }
}
