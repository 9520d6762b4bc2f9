/// The user walk: token-less calls of one user by the gap rule, at most one open search per user.
extension SessionStream {
    /// The user walk (`UserWalk`): token-less calls of one user, by the gap rule.
    mutating func walkUser(_ event: Event) {
        let user = event.key
        let slot = Int(users[state: user]) - 1
        var draft = slot >= 0 ? openUsers[slot] : nil
        let withinGap = draft.map { event.time - $0.lastAutocompleteAt <= options.userGap.microseconds } ?? false
        if event.isAutocomplete {
            if withinGap {
                add(event, to: &draft!)
            } else {
                if let old = draft { emit(old, .abandoned) }
                draft = newDraft(.inferred, opener: event)
            }
            userDeadlines.append((event.time + options.userGap.microseconds, user))
            if slot >= 0 {
                openUsers[slot] = draft
            } else if let free = freeOpenUsers.popLast() {
                openUsers[free] = draft
                users[state: user] = UInt32(free + 1)
            } else {
                users[state: user] = UInt32(openUsers.count + 1)
                openUsers.append(draft)
            }
        } else if withinGap {
            emit(draft!, .completed, selection: event)
            freeUser(user)
        } else {
            if let old = draft {
                emit(old, .abandoned)
                freeUser(user)
            }
            addBaseCall(event, orphan: false)
        }
    }

    mutating func freeUser(_ user: UInt32) {
        let slot = Int(users[state: user]) - 1
        guard slot >= 0 else { return }
        openUsers[slot] = nil
        freeOpenUsers.append(slot)
        users[state: user] = 0
    }
}
