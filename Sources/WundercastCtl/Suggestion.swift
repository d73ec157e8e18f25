/// "Did you mean" for a command or option that is close to a known one (issue 18): `nwo` →
/// `now`, `--formt` → `--format`.
enum Suggestion {
    /// Every long option `wundercastctl` takes.
    static let options = CtlOption.allCases.map(\.long)

    /// `; did you mean 'now'?` when one of `known` is at most 2 edits from `word` (the closest
    /// first), else empty.
    static func didYouMean(_ word: String, among known: [String]) -> String {
        let scored = known.map { ($0, distance(word, $0)) }.filter { $0.1 <= 2 && $0.1 < max(word.count, 1) }
        guard let best = scored.min(by: { $0.1 < $1.1 }) else { return "" }
        return "; did you mean '\(best.0)'?"
    }

    /// Levenshtein distance: insertions, deletions and substitutions.
    static func distance(_ a: String, _ b: String) -> Int {
        let (a, b) = (Array(a), Array(b))
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
