/// The calls CTEs: read the canonical calls and classify each distinct field mask once, not per call.
extension SessionSQLWriter {
    // MARK: - Calls

    private func column(_ name: String) -> String { dialect.quote(name) }

    /// The ORDER BY of every walk: time, then the tie-break.
    var timeOrder: String {
        if options.orderColumn != nil || dialect == .duckdb { return "ts_us, ord" }
        return "ts_us, CASE WHEN api = 'autocomplete' THEN 0 ELSE 1 END, api, input_len, ARRAY_TO_STRING(fields, CHR(31))"
    }

    /// The typed length of a call in code points, as `CallDecoder` takes it: the length of `input`
    /// when the call has one, else the recorded `input_length` (or, in DuckDB, its alias
    /// `inputLength`). A table holds valid records only, so the two agree when both are there.
    private var inputLength: [String] {
        var recorded = dialect.recordedLength(column("input_length"))
        if dialect == .duckdb {
            recorded = "COALESCE(\(recorded), \(dialect.recordedLength(column("inputLength"))))"
        }
        return [
            "COALESCE(",
            "  \(dialect.codePoints(dialect.text(column("input")))),",
            "  CAST(\(recorded) AS \(dialect.integerType))",
            ") AS input_len,",
        ]
    }

    func callsRead() -> [String] {
        let timestamp = column("timestamp")
        let api = dialect.text(column("api"))
        var lines = [
            "-- The calls as the engine reads them: time in microseconds since the epoch (UTC), api names and",
            "-- their aliases in any case mapped to the canonical name (unknown names: 'other', no part in",
            "-- sessions), empty strings as absent, the input's length in code points: the text's, else the",
            "-- recorded input_length (a privacy-first log has only that; NULL: no input).",
            "calls_read AS (",
            "  SELECT",
        ]
        let epoch = dialect.epochMicroseconds(timestamp)
        lines += epoch.dropLast().map { "    " + $0 }
        lines.append("    " + epoch.last! + " AS ts_us,")
        if let order = options.orderColumn {
            lines.append("    \(order.quoted(in: dialect)) AS ord,")
        } else if dialect == .duckdb {
            lines.append("    ROW_NUMBER() OVER () AS ord,")
        }
        lines.append("    CASE lower(\(api))")
        for (alias, canonical) in SessionSQLWriter.apiNames {
            lines.append("      WHEN '\(alias)' THEN '\(canonical)'")
        }
        let token = "NULLIF(\(dialect.text(column("session_token"))), '')"
        lines += [
            "      ELSE 'other'",
            "    END AS api,",
            dialect == .duckdb
                ? "    COALESCE(\(token), NULLIF(\(dialect.text(column("sessionToken"))), '')) AS token,"
                : "    \(token) AS token,",
        ]
        lines += inputLength.map { "    " + $0 }
        lines += [
            "    NULLIF(\(dialect.text(column("user_id"))), '') AS user_id,",
            "    NULLIF(\(dialect.text(column("project"))), '') AS project,",
        ]
        lines += dialect.fieldList(column("fields")).enumerated().map { index, line in
            "    " + line + (index == dialect.fieldList(column("fields")).count - 1 ? " AS fields" : "")
        }
        switch dialect {
        case .bigquery:
            lines.append("  FROM \(options.table.quoted(in: dialect))")
        case .duckdb:
            // UNION BY NAME adds what is missing and leaves the row order alone.
            let fillers = ["session_token", "sessionToken", "input", "input_length", "inputLength", "fields", "user_id", "project"]
                .map { "NULL AS \(column($0))" }
            lines += [
                "  FROM (",
                "    -- Optional columns a loader left out (read_json_auto drops keys no record has) are NULL;",
                "    -- the aliases analyze also reads count when the canonical column is empty: sessionToken",
                "    -- for session_token, inputLength for input_length.",
                "    SELECT * FROM \(options.table.quoted(in: dialect))",
                "    UNION ALL BY NAME",
                "    SELECT " + fillers.joined(separator: ", ") + " WHERE false",
                "  ) AS source",
            ]
        }
        lines += [
            "  WHERE \(timestamp) IS NOT NULL AND \(column("api")) IS NOT NULL AND \(api) <> ''",
            ")",
        ]
        return lines
    }

    /// The SKU code of one field key, `field` (FieldCatalog): legacy data SKU bits (1 Basic,
    /// 2 Contact, 4 Atmosphere) or the New SKU level (0 IDs Only ... 4 Enterprise + Atmosphere).
    private func fieldSKU(_ field: String) -> [String] {
        var lines = ["CASE"]
        let prefixes = FieldCatalog.atmospherePrefixes.map { "starts_with(\(field), '\($0)')" }.joined(separator: " OR ")
        switch table.apiVersion {
        case .legacy:
            for category in FieldCatalog.LegacyCategory.allCases {
                let names = FieldCatalog.entries.filter { $0.value.0 == category }.map(\.key).sorted()
                lines += inList(field, names, then: String(1 << category.rawValue))
            }
            lines.append("  WHEN \(prefixes) THEN \(1 << FieldCatalog.LegacyCategory.atmosphere.rawValue)")
            lines.append("  ELSE \(1 << FieldCatalog.LegacyCategory.basic.rawValue)")
        case .new:
            for sku in FieldCatalog.NewSKU.allCases {
                let names = FieldCatalog.entries.filter { $0.value.1 == sku }.map(\.key).sorted()
                lines += inList(field, names, then: String(sku.rawValue))
            }
            lines.append("  WHEN \(prefixes) THEN \(FieldCatalog.NewSKU.enterpriseAtmosphere.rawValue)")
            lines.append("  ELSE \(FieldCatalog.NewSKU.pro.rawValue)")
        }
        lines.append("END")
        return lines
    }

    /// `WHEN value IN ('a', 'b', ...) THEN result`, wrapped to lines of about 100 characters.
    private func inList(_ value: String, _ names: [String], then result: String) -> [String] {
        guard !names.isEmpty else { return [] }
        var lines: [String] = []
        var current = "  WHEN \(value) IN ("
        for (index, name) in names.enumerated() {
            let item = "'\(name)'" + (index < names.count - 1 ? "," : ") THEN \(result)")
            if current.count + item.count + 1 > 100 {
                lines.append(current)
                current = "      " + item
            } else {
                current += (current.hasSuffix("(") ? "" : " ") + item
            }
        }
        lines.append(current)
        return lines
    }

    /// The SKU code of a details call with every field (no mask, or `*`).
    private var allFieldsSKU: Int {
        switch table.apiVersion {
        case .legacy: FieldCatalog.LegacyCategory.allCases.reduce(0) { $0 | 1 << $1.rawValue }
        case .new: FieldCatalog.NewSKU.enterpriseAtmosphere.rawValue
        }
    }

    /// The SKU code of `FieldCatalog.basicMask` (what the basic strategies cut masks to).
    var basicMaskSKU: Int {
        switch table.apiVersion {
        case .legacy: FieldCatalog.legacyCategories(FieldCatalog.basicMask).reduce(0) { $0 | 1 << $1.rawValue }
        case .new: FieldCatalog.newSKU(FieldCatalog.basicMask).rawValue
        }
    }

    /// The distinct field masks of place_details calls, each classified once (a log holds a few
    /// dozen): classifying every call in place costs DuckDB seconds per million calls.
    func maskFields() -> [String] {
        let whitespace = "' ' || CHR(9)"
        return [
            "-- The named fields of each distinct field mask of place_details calls (a log holds a few dozen",
            "-- masks): names trimmed of spaces and tabs, blank names dropped. A name is looked up without case",
            "-- or underscores, a path (geometry/location) by its first part, with `places.` dropped (FieldCatalog).",
            "mask_fields AS (",
            "  SELECT",
            "    mask_key, name,",
            "    REPLACE(REGEXP_REPLACE(REGEXP_REPLACE(LOWER(name), '(?s)/.*', ''), '^places[.]', ''), '_', '') AS field",
            "  FROM (",
            "    SELECT d.mask_key, TRIM(f, \(whitespace)) AS name",
            "    FROM (",
            "      SELECT \(dialect.maskKey("fields")) AS mask_key, ANY_VALUE(fields) AS fields",
            "      FROM calls_read WHERE api = 'place_details' AND fields IS NOT NULL",
            "      GROUP BY 1",
            "    ) AS d",
            "    CROSS JOIN \(dialect.unnest("d.fields", as: "f"))",
            "  ) AS trimmed",
            "  WHERE name <> ''",
            ")",
        ]
    }

    func masks() -> [String] {
        let sku = fieldSKU("field")
        let aggregate = table.apiVersion == .legacy ? "BIT_OR" : "MAX"
        var lines = [
            "-- What each mask bills: " + (table.apiVersion == .legacy
                ? "the legacy data SKUs as bits 1 Basic, 2 Contact, 4 Atmosphere (all with `*`;"
                : "the New details SKU, 0 IDs Only, 1 Essentials, 2 Pro, 3 Enterprise, 4 Enterprise"),
            table.apiVersion == .legacy
                ? "-- an unknown name bills as Basic)."
                : "-- + Atmosphere: the highest of its fields (4 with `*`; an unknown name bills as Pro).",
            "masks AS (",
            "  SELECT",
            "    mask_key,",
            "    CASE WHEN MAX(CASE WHEN name = '*' THEN 1 ELSE 0 END) = 1 THEN \(allFieldsSKU)",
            "      ELSE \(aggregate)(",
        ]
        lines += sku.map { "        " + $0 }
        lines += [
            "      ) END AS mask_sku",
            "  FROM mask_fields",
            "  GROUP BY mask_key",
            ")",
        ]
        return lines
    }

    func callsMasked() -> [String] {
        [
            "-- Each call with its mask; a call with no field mask (NULL, empty, only blank names) has",
            "-- has_mask = 0 and bills every field.",
            "calls_masked AS (",
            "  SELECT",
            "    c.*,",
            "    CASE WHEN m.mask_key IS NULL THEN 0 ELSE 1 END AS has_mask,",
            "    COALESCE(m.mask_sku, \(allFieldsSKU)) AS mask_sku",
            "  FROM calls_read AS c",
            "  LEFT JOIN masks AS m ON c.api = 'place_details' AND \(dialect.maskKey("c.fields")) = m.mask_key",
            ")",
        ]
    }
}
