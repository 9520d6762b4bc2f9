/// The token walk (rules 1-5) and the compared walks: keep the fast case and `store` inlined.
extension SessionStream {
    mutating func retireIfIdle(_ token: UInt32) {
        guard let index = TokenState(raw: tokens[state: token]).openSlot, let open = openTokens[index] else { return }
        var flags: UInt32 = 0
        for shadowIndex in open.shadows.indices {
            switch open.shadows[shadowIndex] {
            case .open: flags |= 1 << UInt32(shadowIndex)
            case .spent(runOpen: true): return
            case .spent(runOpen: false): break
            }
        }
        var shape = TokenState.mainSpentShape
        if open.sessionOpen {
            // A shape index must fit in the state word; past that the token simply stays open.
            guard tally.shapes.count + 1 < Int(TokenState.mainSpentShape) else { return }
            let keptIndex = tally.kept.count
            shape = UInt32(closeSession(open.draft, .abandoned, mayExpire: true))
            if options.keepSearches { waitingKept[token] = keptIndex }
        } else if open.hasRun {
            return
        }
        openTokens[index] = nil
        freeOpenTokens.append(index)
        tokens[state: token] = TokenState.waiting(shape: shape, flags: flags).raw
    }

    mutating func walkToken(_ event: Event) {
        let token = event.key
        let state = TokenState(raw: tokens[state: token])
        if let slot = state.openSlot, event.isAutocomplete, extendsOpenSession(event, slot: slot) {
            return
        }
        var open: OpenToken
        var index: Int?
        switch state.phase {
        case .fresh:
            guard event.isAutocomplete else {
                // Rule 4: a details call on a token no autocomplete call opened spends it.
                tally.anomalies.detailsWithoutAutocomplete += 1
                countCallAnomaly(event, \.detailsWithoutAutocomplete)
                addBaseCall(event, orphan: true)
                tokens[state: token] = TokenState.spent.raw
                return
            }
            let draft = newDraft(.session, opener: event)
            tally.tokenSearches += 1
            for shadow in tally.alternatives.indices { tally.alternatives[shadow].tokenSearches += 1 }
            open = OpenToken(start: event.time, sessionOpen: true, hasRun: false, draft: draft, shadows: ShadowPhases(repeating: .open, count: options.alternativeTimeouts.count))
            tokenDeadlines.append((event.time + maxTimeout, token))
        case .open(let slot):
            index = slot
            // Moved out of the table (a swap, never a copy: a copy in and out pays reference
            // counting), changed, and moved back by `store`.
            var taken: OpenToken?
            swap(&taken, &openTokens[index!])
            open = (consume taken)!
            stepMain(&open, event)
            stepShadows(&open, event)
        case .waiting(let shape, let flags):
            // Every walk still waiting was past its timeout: this call shows the session expired.
            if shape != TokenState.mainSpentShape {
                tally.anomalies.expired += 1
                countSessionAnomaly(shape: Int(shape), \.expired)
                let expiredShape = tally.reclassify(Int(shape), as: .expired)
                if rows != nil { reshapeRow(token: token, from: shape, to: expiredShape) }
                if let kept = waitingKept.removeValue(forKey: token) { tally.kept[kept].search.outcome = .expired }
            }
            open = OpenToken(start: event.time, sessionOpen: false, hasRun: false, draft: Draft(kind: .spentToken, opener: event, clip: 0), shadows: ShadowPhases(repeating: .spent(runOpen: false), count: options.alternativeTimeouts.count))
            for shadow in options.alternativeTimeouts.indices where flags & (1 << UInt32(shadow)) != 0 {
                tally.alternatives[shadow].expired += 1
            }
            stepMain(&open, event)
            stepShadows(&open, event)
        case .spent:
            open = OpenToken(start: event.time, sessionOpen: false, hasRun: false, draft: Draft(kind: .spentToken, opener: event, clip: 0), shadows: ShadowPhases(repeating: .spent(runOpen: false), count: options.alternativeTimeouts.count))
            stepMain(&open, event)
            stepShadows(&open, event)
        }
        store(consume open, token: token, at: index)
    }

    /// Adds an autocomplete call to its token's open session in place, when every walk (the
    /// main one and the compared ones) has that session open and within its timeout: then the
    /// call changes nothing but the draft (`stepMain`, `stepShadows`). Most calls are such.
    ///
    /// - Returns: `false`, changing nothing, when the call needs the full step (or its length
    ///   must be kept for `searches.csv`).
    @inline(__always)
    private mutating func extendsOpenSession(_ event: Event, slot: Int) -> Bool {
        guard !options.keepSearches else { return false }
        let clip = options.clip
        let minTimeout = minTimeout
        return openTokens.withUnsafeMutableBufferPointer { open in
            guard open[slot]?.sessionOpen == true, event.time - open[slot]!.start <= minTimeout,
                  event.time - open[slot]!.draft.startedAt <= minTimeout, open[slot]!.shadows.allOpen
            else { return false }
            return open[slot]!.draft.addInPlace(event, clip: clip)
        }
    }

    /// Files the token's state: compact when every walk is spent with no run open.
    ///
    /// Keep it inlined into `walkToken`, its only caller: called, it first copies the 120-byte
    /// token, whose reload of fields just written stalls.
    @inline(__always)
    private mutating func store(_ open: consuming OpenToken, token: UInt32, at index: Int?) {
        if open.isIdle {
            if let index {
                openTokens[index] = nil
                freeOpenTokens.append(index)
            }
            tokens[state: token] = TokenState.spent.raw
            return
        }
        let slot: Int
        if let index {
            slot = index
            openTokens[slot] = open
        } else if let free = freeOpenTokens.popLast() {
            slot = free
            openTokens[slot] = open
        } else {
            slot = openTokens.count
            openTokens.append(open)
        }
        tokens[state: token] = TokenState.open(slot: slot).raw
    }

    /// The main walk (`TokenWalk`): rules 1-5 with searches.
    private mutating func stepMain(_ open: inout OpenToken, _ event: Event) {
        guard open.sessionOpen else {
            stepAfterSpent(&open, event)
            return
        }
        if event.time - open.draft.startedAt > options.timeout.microseconds {
            tally.anomalies.expired += 1
            let shape = closeSession(open.draft, .expired)
            countSessionAnomaly(shape: shape, \.expired)
            open.sessionOpen = false
            stepAfterSpent(&open, event)
        } else if event.isAutocomplete {
            add(event, to: &open.draft)
        } else {
            closeSession(open.draft, .completed, selection: event)
            open.sessionOpen = false
        }
    }

    private mutating func stepAfterSpent(_ open: inout OpenToken, _ event: Event) {
        tally.anomalies.tokenReused += 1
        countCallAnomaly(event, \.tokenReused)
        if event.isAutocomplete {
            if open.hasRun {
                add(event, to: &open.draft)
            } else {
                tally.tokenSearches += 1
                open.draft = newDraft(.spentToken, opener: event)
                open.hasRun = true
            }
        } else if open.hasRun {
            emit(open.draft, .completed, selection: event)
            open.hasRun = false
        } else {
            addBaseCall(event, orphan: false)  // a standalone details call
        }
    }

    /// The compared-timeout walks: the same rules, counting expired sessions and searches.
    private mutating func stepShadows(_ open: inout OpenToken, _ event: Event) {
        for index in open.shadows.indices {
            var phase = open.shadows[index]
            if phase == .open {
                if event.time - open.start > options.alternativeTimeouts[index].microseconds {
                    tally.alternatives[index].expired += 1
                    phase = .spent(runOpen: false)
                } else {
                    open.shadows[index] = event.isAutocomplete ? .open : .spent(runOpen: false)
                    continue
                }
            }
            if event.isAutocomplete {
                if phase == .spent(runOpen: false) { tally.alternatives[index].tokenSearches += 1 }
                phase = .spent(runOpen: true)
            } else {
                phase = .spent(runOpen: false)
            }
            open.shadows[index] = phase
        }
    }
}
