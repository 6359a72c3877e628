//! Counts in sentences: a number with the noun that agrees with it, the
//! one helper every printed sentence uses, so that no output says
//! "1 calls".

use std::fmt::Display;

/// `n` followed by `one` when `n` is 1, else by `many`.
///
/// ```
/// use boardsat_encode::words::plural;
///
/// assert_eq!(plural(1usize, "call", "calls"), "1 call");
/// assert_eq!(plural(0u64, "cube", "cubes"), "0 cubes");
/// assert_eq!(plural(2u32, "cube's proof", "cubes' proofs"), "2 cubes' proofs");
/// ```
#[must_use]
pub fn plural<N: Display + PartialEq + From<u8>>(n: N, one: &str, many: &str) -> String {
    let noun = if n == N::from(1) { one } else { many };
    format!("{n} {noun}")
}

#[cfg(test)]
mod tests {
    use super::plural;

    #[test]
    fn one_is_singular_and_every_other_count_plural() {
        assert_eq!(plural(1u128, "model", "models"), "1 model");
        for n in [0u64, 2, 11, 21, 101] {
            assert_eq!(plural(n, "model", "models"), format!("{n} models"));
        }
    }
}
