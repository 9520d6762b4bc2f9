/// The token and user walks as window functions, then searches and base calls, as the engine walks.
extension SessionSQLWriter {
    // MARK: - The token walk (TokenWalk)

    private var timeoutMicroseconds: String { String(options.sessions.timeout.microseconds) }

    func tokenCalls() -> [String] {
        [
            "-- Token walk, sessions.md rules 1-5. The calls with a token that take part in sessions",
            "-- (autocomplete, place_details, address_validation), grouped by (project, token) and numbered in",
            "-- time order; start_us is the first call's time, the session's start when it is an autocomplete call.",
            "token_calls AS (",
            "  SELECT",
            "    c.*,",
            "    ROW_NUMBER() OVER w AS step,",
            "    FIRST_VALUE(api) OVER w AS first_api,",
            "    FIRST_VALUE(ts_us) OVER w AS start_us",
            "  FROM calls_masked AS c",
            "  WHERE token IS NOT NULL AND api IN ('autocomplete', 'place_details', 'address_validation')",
            "  WINDOW w AS (PARTITION BY project, token ORDER BY \(timeOrder))",
            ")",
        ]
    }

    func tokenEnds() -> [String] {
        [
            "-- Where the session ends: the first call after the opening autocomplete call that does not join",
            "-- it, i.e. a details call (rule 3: it completes the session) or any call more than the timeout",
            "-- after the start (rule 2: the session expired).",
            "token_ends AS (",
            "  SELECT",
            "    t.*,",
            "    MIN(CASE WHEN first_api = 'autocomplete' AND step > 1",
            "             AND (api <> 'autocomplete' OR ts_us - start_us > \(timeoutMicroseconds)) THEN step END)",
            "      OVER (PARTITION BY project, token) AS end_step",
            "  FROM token_calls AS t",
            ")",
        ]
    }

    func tokenRoles() -> [String] {
        [
            "-- Each call's part: 'session' (the opener and the calls that join it), 'selection' (the details",
            "-- call that completes it), 'orphan' (a details call on a fresh token, rule 4: a standalone details",
            "-- call that spends the token) or 'spent' (every call after the token was spent: completed, used",
            "-- by a details call, or expired, the call that revealed the expiry included).",
            "token_roles AS (",
            "  SELECT",
            "    e.*,",
            "    CASE",
            "      WHEN first_api <> 'autocomplete' AND step = 1 THEN 'orphan'",
            "      WHEN first_api = 'autocomplete' AND (end_step IS NULL OR step < end_step) THEN 'session'",
            "      WHEN step = end_step AND ts_us - start_us <= \(timeoutMicroseconds) THEN 'selection'",
            "      ELSE 'spent'",
            "    END AS role",
            "  FROM token_ends AS e",
            ")",
        ]
    }

    func tokenRuns() -> [String] {
        [
            "-- Calls after the token was spent form runs, each up to and including a details call: run counts",
            "-- the spent details calls before the call.",
            "token_runs AS (",
            "  SELECT",
            "    r.*,",
            "    COALESCE(SUM(CASE WHEN role = 'spent' AND api <> 'autocomplete' THEN 1 ELSE 0 END) OVER (",
            "      PARTITION BY project, token ORDER BY step ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS run",
            "  FROM token_roles AS r",
            ")",
        ]
    }

    /// `kept_<k>`: autocomplete calls a delay of k keeps (input longer than k, or unrecorded).
    private func keptColumns(where condition: String) -> [String] {
        pricedDelays.filter { $0 > 0 }.map { delay in
            "    SUM(CASE WHEN \(condition) AND (input_len IS NULL OR input_len > \(delay)) THEN 1 ELSE 0 END) AS kept_\(delay),"
        }
    }

    func sessions() -> [String] {
        var lines = [
            "-- One session per token opened by an autocomplete call: completed by its selection, else",
            "-- expired (closed by the timeout) or abandoned (still open at the end of the token's calls).",
            "sessions AS (",
            "  SELECT",
            "    MIN(start_us) AS start_us,",
            "    SUM(CASE WHEN role = 'session' THEN 1 ELSE 0 END) AS requests,",
        ]
        lines += keptColumns(where: "role = 'session'")
        lines += [
            "    MAX(CASE WHEN role = 'selection' THEN 1 ELSE 0 END) AS completed,",
            "    MAX(CASE WHEN role = 'spent' AND step = end_step THEN 1 ELSE 0 END) AS expired,",
            "    MAX(CASE WHEN role = 'selection' THEN api END) AS selection_api,",
            "    MAX(CASE WHEN role = 'selection' THEN mask_sku END) AS selection_sku",
            "  FROM token_runs",
            "  WHERE first_api = 'autocomplete'",
            "  GROUP BY project, token",
            ")",
        ]
        return lines
    }

    func spentRuns() -> [String] {
        var lines = [
            "-- The runs after the token was spent: a run with an autocomplete call is a search billed as",
            "-- without a token (completed when a details call ends it); a run of one details call is a",
            "-- standalone details call.",
            "spent_runs AS (",
            "  SELECT",
            "    MIN(CASE WHEN api = 'autocomplete' THEN ts_us END) AS start_us,",
            "    MAX(CASE WHEN api <> 'autocomplete' THEN ts_us END) AS selection_us,",
            "    SUM(CASE WHEN api = 'autocomplete' THEN 1 ELSE 0 END) AS requests,",
        ]
        lines += keptColumns(where: "api = 'autocomplete'")
        lines += [
            "    MAX(CASE WHEN api <> 'autocomplete' THEN 1 ELSE 0 END) AS completed,",
            "    MAX(CASE WHEN api <> 'autocomplete' THEN api END) AS selection_api,",
            "    MAX(CASE WHEN api <> 'autocomplete' THEN mask_sku END) AS selection_sku",
            "  FROM token_runs",
            "  WHERE role = 'spent'",
            "  GROUP BY project, token, run",
            ")",
        ]
        return lines
    }

    // MARK: - The user walk (UserWalk)

    func userCalls() -> [String] {
        [
            "-- User walk (sessions.md, token-less calls): autocomplete, place_details and geocoding calls",
            "-- without a token but with a user id, by (project, user_id) in time order. A call continues the",
            "-- open search when the call before it is an autocomplete call at most the gap (\(seconds(options.sessions.userGap)) s) earlier:",
            "-- an autocomplete call joins it, a details or geocoding call completes it.",
            "user_calls AS (",
            "  SELECT",
            "    c.*,",
            "    ROW_NUMBER() OVER w AS step,",
            "    CASE WHEN LAG(api) OVER w = 'autocomplete' AND ts_us - LAG(ts_us) OVER w <= \(options.sessions.userGap.microseconds)",
            "         THEN 1 ELSE 0 END AS continues",
            "  FROM calls_masked AS c",
            "  WHERE token IS NULL AND user_id IS NOT NULL AND api IN ('autocomplete', 'place_details', 'geocoding')",
            "  WINDOW w AS (PARTITION BY project, user_id ORDER BY \(timeOrder))",
            ")",
        ]
    }

    func userSearches() -> [String] {
        [
            "-- An autocomplete call that does not continue a search starts one: search numbers them.",
            "user_searches AS (",
            "  SELECT",
            "    u.*,",
            "    SUM(CASE WHEN api = 'autocomplete' AND continues = 0 THEN 1 ELSE 0 END) OVER (",
            "      PARTITION BY project, user_id ORDER BY step ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS search",
            "  FROM user_calls AS u",
            ")",
        ]
    }

    func inferredSearches() -> [String] {
        var lines = [
            "-- The inferred searches: their autocomplete calls and the call that completed them.",
            "inferred AS (",
            "  SELECT",
            "    MIN(CASE WHEN api = 'autocomplete' THEN ts_us END) AS start_us,",
            "    SUM(CASE WHEN api = 'autocomplete' THEN 1 ELSE 0 END) AS requests,",
        ]
        lines += keptColumns(where: "api = 'autocomplete'")
        lines += [
            "    MAX(CASE WHEN api <> 'autocomplete' THEN 1 ELSE 0 END) AS completed,",
            "    MAX(CASE WHEN api <> 'autocomplete' THEN api END) AS selection_api,",
            "    MAX(CASE WHEN api <> 'autocomplete' THEN mask_sku END) AS selection_sku",
            "  FROM user_searches",
            "  WHERE search > 0 AND (api = 'autocomplete' OR continues = 1)",
            "  GROUP BY project, user_id, search",
            ")",
        ]
        return lines
    }

    // MARK: - Searches and base calls

    func searchRows() -> [String] {
        let kept = pricedDelays.filter { $0 > 0 }.map { "kept_\($0)" }
        let columns = (["start_us", "requests"] + kept + ["completed"]).joined(separator: ", ")
        return [
            "-- Every search: sessions, runs after a spent token that hold an autocomplete call, inferred searches.",
            "search_rows AS (",
            "  SELECT 'session' AS kind, \(columns), expired, selection_api, selection_sku FROM sessions",
            "  UNION ALL",
            "  SELECT 'spent_token' AS kind, \(columns), 0 AS expired, selection_api, selection_sku FROM spent_runs WHERE requests > 0",
            "  UNION ALL",
            "  SELECT 'inferred' AS kind, \(columns), 0 AS expired, selection_api, selection_sku FROM inferred",
            ")",
        ]
    }

    func searches() -> [String] {
        var lines = [
            "-- n_<k>: the autocomplete calls billed at delay k; a completed search keeps at least one request",
            "-- (the user types on until predictions appear), an abandoned one may keep none.",
            "searches AS (",
            "  SELECT",
            "    kind, start_us, requests, completed, expired,",
            "    COALESCE(selection_api, 'none') AS selection_api,",
            "    COALESCE(selection_sku, 0) AS selection_sku,",
            "    requests AS n_0,",
        ]
        for delay in pricedDelays where delay > 0 {
            lines.append("    CASE WHEN completed = 1 AND kept_\(delay) = 0 THEN 1 ELSE kept_\(delay) END AS n_\(delay),")
        }
        lines[lines.count - 1].removeLast()
        lines += ["  FROM search_rows", ")"]
        return lines
    }

    func baseCalls() -> [String] {
        [
            "-- Calls outside every search, priced alike in every strategy: calls in neither walk (no token",
            "-- and no user id, or an api that takes no part), details calls on a fresh token, standalone",
            "-- details calls after a spent token, and token-less details or geocoding calls no search took.",
            "base_calls AS (",
            "  SELECT ts_us, api, mask_sku FROM calls_masked",
            "  WHERE NOT (token IS NOT NULL AND api IN ('autocomplete', 'place_details', 'address_validation'))",
            "    AND NOT (token IS NULL AND user_id IS NOT NULL AND api IN ('autocomplete', 'place_details', 'geocoding'))",
            "  UNION ALL",
            "  SELECT ts_us, api, mask_sku FROM token_runs WHERE role = 'orphan'",
            "  UNION ALL",
            "  SELECT selection_us AS ts_us, selection_api AS api, selection_sku AS mask_sku FROM spent_runs WHERE requests = 0",
            "  UNION ALL",
            "  SELECT ts_us, api, mask_sku FROM user_searches WHERE api <> 'autocomplete' AND continues = 0",
            ")",
        ]
    }
}
