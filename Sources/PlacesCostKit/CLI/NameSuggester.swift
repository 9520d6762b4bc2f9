/// Finds the name a user most likely meant by a misspelled option or command (`--jsn`: `json`;
/// `analyse`: `analyze`), for the "Did you mean" of a usage error.
///
/// The distance is Damerau-Levenshtein's (optimal string alignment: an insertion, a deletion, a
/// substitution or a swap of two neighbouring characters each count one), compared without
/// case. A name is suggested within 2 edits, or 1 when the word typed has 4 characters or fewer,
/// where 2 edits would make almost any short name a match.
enum NameSuggester {
    /// The candidate nearest to `word` within the allowed distance, the first in `candidates`
    /// order among equals; nil when none is near enough.
    static func nearest(to word: String, among candidates: [String]) -> String? {
        let limit = word.count <= 4 ? 1 : 2
        var best: (name: String, distance: Int)?
        for candidate in candidates {
            let distance = distance(word.lowercased(), candidate.lowercased())
            if distance <= limit, distance < (best?.distance ?? .max) {
                best = (candidate, distance)
            }
        }
        return best?.name
    }

    /// The optimal string alignment distance between `a` and `b`, by characters.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        // rows[i][j]: the distance between the first i characters of a and the first j of b.
        var rows = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { rows[i][0] = i }
        for j in 0...b.count { rows[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                rows[i][j] = min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    rows[i][j] = min(rows[i][j], rows[i - 2][j - 2] + 1)
                }
            }
        }
        return rows[a.count][b.count]
    }
}
