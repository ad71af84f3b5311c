//! The known words nearest a mistyped one, for errors that say what was
//! meant ("did you mean kh3?", "the nearest paths are ...").

/// The number of single-character edits (insertions, deletions,
/// substitutions) between `a` and `b` (Levenshtein), in O(|a|·|b|): for
/// short words only.
pub(crate) fn edits(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let next = (diagonal + usize::from(ca != *cb))
                .min(row[j] + 1)
                .min(row[j + 1] + 1);
            diagonal = row[j + 1];
            row[j + 1] = next;
        }
    }
    row[b.len()]
}

/// Of `known`, the `count` words nearest `word`, nearest first (ties in
/// the order given).
pub(crate) fn nearest<'k>(word: &str, known: &[&'k str], count: usize) -> Vec<&'k str> {
    let mut ranked: Vec<(usize, usize, &str)> = known
        .iter()
        .enumerate()
        .map(|(i, k)| (edits(word, k), i, *k))
        .collect();
    ranked.sort_unstable();
    ranked.into_iter().take(count).map(|(_, _, k)| k).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edits_count_insertions_deletions_and_substitutions() {
        assert_eq!(edits("", ""), 0);
        assert_eq!(edits("kh", "kh"), 0);
        assert_eq!(edits("kitten", "sitting"), 3);
        assert_eq!(edits("", "abc"), 3);
        assert_eq!(edits("tvd", "tdv"), 2);
        assert_eq!(edits("é", "e"), 1);
        // Symmetric, by brute force over short words.
        let words = ["", "a", "ab", "ba", "abc", "cab", "bca", "aab"];
        for a in words {
            for b in words {
                assert_eq!(edits(a, b), edits(b, a), "{a} {b}");
                assert!(edits(a, b) <= a.chars().count().max(b.chars().count()));
            }
        }
    }

    #[test]
    fn the_nearest_come_first() {
        let known = ["max_ratio", "tvd", "p_first", "tv"];
        assert_eq!(nearest("tdv", &known, 2), ["tv", "tvd"]);
        assert_eq!(nearest("p_frist", &known, 1), ["p_first"]);
        assert!(nearest("x", &[], 3).is_empty());
    }
}
