/// The headline's rows for a `Recommendation`, shared by `report.md` and `simulate`: what to do,
/// what it saves, the saving without a delay, and why the advice is not the tree's literal
/// answer. Every figure is also in `report.json`.
enum AdviceSentences {
    /// The option that sets the volume the advice changes at: `--scale` on a log, `--searches`
    /// in a scenario.
    enum VolumeOption {
        case scale, searches

        func argument(_ change: Recommendation.ScaleChange) -> String {
            switch self {
            case .scale: "--scale \(Money.argument(change.scale, digits: 4))"
            case .searches: "--searches \(Int(change.searchesPerMonth.rounded()))"
            }
        }
    }

    /// The "Estimated bill now" row's text: the bill and the list cost, both a month (a log of
    /// several months is billed month by month), with `coverage` (what the log covers) after
    /// the bill when given.
    static func billNow(_ advice: Recommendation, coverage: String? = nil) -> String {
        let months = Double(advice.months)
        return "**\(Money.usd(advice.current.costUSD / months)) a month**" + (coverage.map { " " + $0 } ?? "")
            + "; \(Money.usd(advice.current.listCostUSD / months))\(advice.months > 1 ? " a month" : "") at list prices"
    }

    /// The share of the calls whose token and input the log does not show from which the
    /// headline warns that its figures rest on them (the "Input" section counts any).
    static let unseenTokensShare = 0.05

    /// The headline's caution when many calls are Places API (New) calls whose body (token,
    /// typed input) the log does not show, as in a proxy's access log: they are counted as calls
    /// without a token, which the bill, the anomalies and the advice then rest on. `nil` below
    /// `unseenTokensShare` of the calls.
    static func unseenTokens(_ input: Analysis.Input) -> String? {
        guard input.records > 0, input.bodiesUnknown > 0 else { return nil }
        let share = Double(input.bodiesUnknown) / Double(input.records)
        guard share >= unseenTokensShare else { return nil }
        return "**\(Money.count(input.bodiesUnknown)) of \(Money.count(input.records, "call", "calls")) (\(Money.plain(share * 100))%) are Places API (New) calls whose body this log does not show**: their session tokens and typed input are unknown, so they count as calls without a token, and the bill, the anomalies and the advice are what such calls would cost. A HAR capture, or a log the app writes (docs/instrumentation.md), shows the tokens."
    }

    /// `(label, text)` rows, in the order a product manager reads them.
    static func rows(_ advice: Recommendation, pricing: PricingResult, volume: VolumeOption = .scale) -> [(String, String)] {
        var rows: [(String, String)] = []
        let perMonth = { (usd: Double) in Money.usd(usd / Double(advice.months)) }
        if advice.keepsCurrent {
            let why = advice.evidence.searches == 0
                ? "the log holds no autocomplete search, so there is no search to bill another way"
                : "at this volume no option that serves the app bills less than the calls as made"
            rows.append(("Recommended", "**Keep the integration as it is** (`current`, delay 0): \(why)"))
            if let cheapest = advice.cheapestAtListPrices {
                let pastCaps = Money.micros(cheapest.listCostUSD) < Money.micros(advice.current.listCostUSD)
                    ? "once past them, \(Advisor.name(cheapest)) is cheapest at list prices (\(perMonth(cheapest.listCostUSD)) against \(perMonth(advice.current.listCostUSD)) a month for the calls as made)"
                    : "past them too, no option bills less at list prices than the calls as made (\(perMonth(advice.current.listCostUSD)) a month)"
                rows.append(("Saving", "none to make: every option bills $0.00 a month inside \(Advisor.volumeEffects(pricing)) at this volume; \(pastCaps)"))
            } else if let alternative = advice.cheapestAlternative {
                let text = Money.micros(alternative.savingsUSDPerMonth) == 0
                    ? "\(Advisor.name(alternative)) bills the same as the calls as made, \(perMonth(alternative.costUSD)) a month"
                    : "\(Advisor.name(alternative)) bills \(Money.usd(-alternative.savingsUSDPerMonth)) a month more (\(Money.plain(-alternative.savingsPercent))% of the bill)"
                rows.append(("Cheapest alternative", text))
            }
            if let change = advice.adviceChanges {
                rows.append(("When this changes", "from about \(Money.count(change.searchesPerMonth, "search", "searches")) a month (`\(volume.argument(change))`), `\(change.strategy.rawValue)` with delay \(change.delay) bills less than the calls as made"))
            } else if advice.cheapestAlternative != nil {
                rows.append(("When this changes", "no volume from a millionth to a million times this one makes another option bill less"))
            }
        } else {
            let option = advice.recommended
            rows.append(("Recommended", "**\(describe(option.strategy, delay: option.delay))** (`\(option.strategy.rawValue)`, delay \(option.delay))"))
            let latency = option.delay > 0 ? "; users see predictions from the \(DecisionTree.ordinal(option.delay + 1)) character" : ""
            rows.append(("Saving", "**\(Money.usd(option.savingsUSDPerMonth)) a month** (\(Money.plain(option.savingsPercent))% of the bill)\(latency)"))
            if let plain = advice.bestWithoutDelay {
                let saving = Money.micros(plain.savingsUSDPerMonth)
                let text = saving > 0
                    ? "\(Advisor.name(plain)) saves \(Money.usd(plain.savingsUSDPerMonth)) a month (\(Money.plain(plain.savingsPercent))%)"
                    : "no option bills less than the calls as made; the cheapest, \(Advisor.name(plain)), bills "
                        + (saving == 0 ? "the same" : "\(Money.usd(-plain.savingsUSDPerMonth)) a month more")
                rows.append((advice.evidence.currentDelay == 0 ? "Without a delay" : "Without more delay", text))
            }
        }
        if let reason = advice.differsFromTree {
            rows.append(("Why not the tree's answer", reason))
        }
        return rows
    }

    /// The strategy at a delay, for people.
    static func describe(_ strategy: StrategyID, delay: Int) -> String {
        let title = strategy == .current ? "Keep the calls as made" : strategy.title
        return delay == 0 ? title : "\(title), predictions from the \(DecisionTree.ordinal(delay + 1)) character"
    }
}
