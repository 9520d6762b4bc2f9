/// Google's decision tree (`docs/billing.md` section 2, `docs/sessions.md` "From counts to money"),
/// walked with the measured numbers; every step says which number it used.
enum DecisionTree {
    struct Answer: Sendable, Equatable {
        var strategy: StrategyID
        var delay: Int
        /// The steps taken, as sentences.
        var path: [String]
    }

    /// Walks the tree: needs details -> `session_details`; else the mean requests per search at
    /// or under the break-even -> `per_request_geocoding`; else the smallest delay 1...maxDelay
    /// whose mean is at or under it -> `per_request_geocoding` with that delay; else
    /// `session_details_basic`. Means are over all searches.
    ///
    /// With a current delay K (`Evidence.currentDelay`), the means are the app's, at K, the
    /// delays tried are those past K, and every answer keeps at least K.
    static func walk(_ evidence: Recommendation.Evidence) -> Answer {
        let kept = evidence.currentDelay
        /// How the answer's delay reads: nothing added to what the app has.
        let asNow = kept == 0 ? "no delay" : "delay \(kept), as now"
        var path = [needsDetailsStep(evidence.needsDetails)]
        if evidence.needsDetails.needsDetails {
            path.append("-> Sessions with Place Details, asking only for the fields the app uses (`session_details`\(kept == 0 ? "" : ", \(asNow)")).")
            return Answer(strategy: .sessionDetails, delay: kept, path: path)
        }
        let breakEven = evidence.breakEvenRequests
        let mean = evidence.meanRequests[kept] ?? 0
        let measured = kept == 0 ? "" : " (the app's, waiting for the \(ordinal(kept + 1)) character)"
        let question = "2. Do searches make at most the break-even of \(Money.plain(breakEven)) autocomplete requests on average (from the first-tier prices of `\(evidence.tableID)`)?"
        // A page on both Places libraries: the tree takes the table that billed most; the bill
        // prices each call with its own.
        let other = evidence.otherGeneration.map {
            " The log's other API generation, \(Money.plain($0.share * 100))% of what was priced, breaks even at \(Money.plain($0.breakEvenRequests)) by `\($0.tableID)`: its calls are billed by that table, and `--by api_version` shows each generation's bill."
        } ?? ""
        if mean <= breakEven {
            path.append("\(question) Yes: \(requestsPerSearch(mean, breakEven))\(measured) over \(Money.count(evidence.searches, "search", "searches")).\(other)")
            path.append("-> Autocomplete per request without session tokens, then one Geocoding call for the chosen place (`per_request_geocoding`, \(asNow)).")
            return Answer(strategy: .perRequestGeocoding, delay: kept, path: path)
        }
        path.append("\(question) No: \(requestsPerSearch(mean, breakEven))\(measured) over \(Money.count(evidence.searches, "search", "searches")).\(other)")
        var tried: [String] = []
        for delay in (kept + 1)...max(evidence.maxDelay, kept + 1) where delay <= evidence.maxDelay {
            let delayed = evidence.meanRequests[delay] ?? mean
            if delayed <= breakEven {
                tried.append("delay \(delay): \(compared(delayed, breakEven)) <= \(Money.plain(breakEven))")
                path.append("3. Does waiting for more characters bring the mean to the break-even? Yes: " + tried.joined(separator: "; ") + ".")
                path.append("-> Autocomplete per request without session tokens from the \(ordinal(delay + 1)) character on, then one Geocoding call for the chosen place (`per_request_geocoding`, delay \(delay)). Users may feel the wait for predictions as latency.")
                return Answer(strategy: .perRequestGeocoding, delay: delay, path: path)
            }
            tried.append("delay \(delay): \(compared(delayed, breakEven))")
        }
        let answer = !tried.isEmpty
            ? "No delay up to \(evidence.maxDelay) does (" + tried.joined(separator: "; ") + ")."
            : kept > 0 ? "Not tried: the app waits for the \(ordinal(kept + 1)) character already, and `--max-delay` is \(evidence.maxDelay)." : "Not tried: `--max-delay` is 0."
        path.append("3. Does waiting for more characters bring the mean to the break-even? " + answer)
        path.append("-> Sessions with Place Details cut to the address and location fields (`session_details_basic`\(kept == 0 ? "" : ", \(asNow)")).")
        return Answer(strategy: .sessionDetailsBasic, delay: kept, path: path)
    }

    private static func needsDetailsStep(_ need: DetailsNeed) -> String {
        let question = "1. Does the app need more than the address and location of the chosen place?"
        switch need.source {
        case .override:
            return "\(question) \(need.needsDetails ? "Yes" : "No"), as set with `--needs-details`."
        case .scenario:
            return "\(question) \(need.needsDetails ? "Yes: the scenario's field mask asks for more than address and location fields." : "No: the scenario's field mask asks only for address and location fields.")"
        case .assumed:
            return "\(question) Yes, assumed: no selection in the log carried a field mask (pass `--needs-details no` if the app uses only the address and location)."
        case .measured where need.needsDetails && need.selectionsWithWildcard == need.selectionsNeedingDetails:
            // Only `*` asks for more than address and location: a mask that names no field says no
            // more of what the app reads than no mask does.
            let others = need.selectionsWithMask > need.selectionsWithWildcard ? "; the others ask only for address and location" : ""
            return "\(question) Yes, assumed: \(DecisionTree.selections(need)) (\(Money.plain(need.share * 100))%) \(need.selectionsNeedingDetails == 1 ? "asks" : "ask") for every field with `*`, which tells nothing of the fields the app reads\(others) (pass `--needs-details no` if it uses only the address and location)."
        case .measured where need.needsDetails:
            return "\(question) Yes: \(DecisionTree.selections(need)) (\(Money.plain(need.share * 100))%) \(need.selectionsNeedingDetails == 1 ? "asks" : "ask") for other fields" + DecisionTree.wildcardClause(need) + "."
        case .measured:
            return "\(question) No: \(DecisionTree.allSelections(need)) only for address and location fields."
        }
    }

    /// `value` with enough decimals that it does not print equal to `threshold` when it differs.
    /// `6.24 requests per search`, `1 request per search`: the mean as `compared` writes it.
    static func requestsPerSearch(_ mean: Double, _ breakEven: Double) -> String {
        Money.counted(compared(mean, breakEven), "request", "requests") + " per search"
    }

    static func compared(_ value: Double, _ threshold: Double) -> String {
        var digits = 2
        while digits < 6, value != threshold, Money.plain(value, digits: digits) == Money.plain(threshold, digits: digits) {
            digits += 1
        }
        return Money.plain(value, digits: digits)
    }

    /// What the `*` masks among selections that also name other fields say, when there are any:
    /// a clause beginning with "; ", or nothing.
    static func wildcardClause(_ need: DetailsNeed) -> String {
        guard need.selectionsWithWildcard > 0 else { return "" }
        return "; \(Money.count(need.selectionsWithWildcard)) of them with `*`, which asks for every field and tells nothing of the fields the app reads"
    }

    /// `3 of 40 selections with a field mask`, `1 of 1 selection with a field mask`.
    static func selections(_ need: DetailsNeed) -> String {
        "\(Money.count(need.selectionsNeedingDetails)) of \(Money.count(need.selectionsWithMask, "selection", "selections")) with a field mask"
    }

    /// `all 40 selections with a field mask ask`, `the 1 selection with a field mask asks`.
    static func allSelections(_ need: DetailsNeed) -> String {
        need.selectionsWithMask == 1
            ? "the 1 selection with a field mask asks"
            : "all \(Money.count(need.selectionsWithMask)) selections with a field mask ask"
    }

    static func ordinal(_ number: Int) -> String {
        let suffix: String
        switch (number % 10, number % 100) {
        case (_, 11...13): suffix = "th"
        case (1, _): suffix = "st"
        case (2, _): suffix = "nd"
        case (3, _): suffix = "rd"
        default: suffix = "th"
        }
        return "\(number)\(suffix)"
    }
}
