/// A search being assembled: lengths in place while they fit, aside by sequence once they outgrow it.
extension SessionStream {
    /// A search being assembled. No field refers to storage, so moving and copying one costs
    /// no reference counting: lengths that outgrow `LengthProfile.Compact` wait in
    /// `asideLengths`, and every length of a kept search in `keptLengths` (`SessionStream.add`).
    struct Draft {
        var kind: Search.Kind
        var sequence: Int64
        var startedAt: Int64
        var lastAutocompleteAt: Int64
        var lengths = LengthProfile.Compact()
        /// The lengths are in `asideLengths` under `sequence` instead.
        var lengthsAside = false
        /// Its row was published as it stood (`RowPublication.provisional`); a later call may
        /// have changed it since.
        var publishedAsItStands = false
        var generation: APIGeneration?
        var platform: UInt32 = 0
        var project: UInt32
        var key: UInt32
        var user: UInt32

        /// A draft opened by `opener`; the stream notes the opener's length for a kept search.
        init(kind: Search.Kind, opener: Event, clip: Int) {
            self.kind = kind
            self.sequence = opener.sequence
            self.startedAt = opener.time
            self.lastAutocompleteAt = opener.time
            self.project = opener.project
            self.key = opener.key
            self.user = opener.byToken ? opener.user : opener.key
            let added = addInPlace(opener, clip: clip)
            assert(added, "a first length always fits")
        }

        /// Adds `event` when its length fits in `lengths`; returns `false`, changing nothing,
        /// otherwise (`SessionStream.add` then does).
        @inline(__always)
        mutating func addInPlace(_ event: Event, clip: Int) -> Bool {
            guard !lengthsAside, lengths.add(event.inputLength, clip: clip) else { return false }
            note(event)
            return true
        }

        /// Whether the search has exactly one autocomplete call (`lengths` is not current once
        /// they are aside, which happens from a second call on).
        var hasOneRequest: Bool { !lengthsAside && lengths.requests == 1 }

        /// What an added call tells besides its length.
        @inline(__always)
        mutating func note(_ event: Event) {
            lastAutocompleteAt = event.time
            if generation == nil { generation = event.generation }
            if platform == 0 { platform = event.platform }
        }
    }

    /// A draft opened by `opener`, its length noted when searches are kept.
    mutating func newDraft(_ kind: Search.Kind, opener: Event) -> Draft {
        if options.keepSearches { keptLengths[opener.sequence] = [opener.inputLength >= 0 ? Int(opener.inputLength) : nil] }
        return Draft(kind: kind, opener: opener, clip: options.clip)
    }

    /// Adds an autocomplete call to `draft`: in place, or with its lengths aside once they
    /// outgrow it; and to the kept lengths when searches are kept.
    mutating func add(_ event: Event, to draft: inout Draft) {
        let length = event.inputLength >= 0 ? Int(event.inputLength) : nil
        if !draft.addInPlace(event, clip: options.clip) {
            draft.note(event)
            if !draft.lengthsAside {
                asideLengths[draft.sequence] = LengthProfile(draft.lengths)
                draft.lengthsAside = true
            }
            asideLengths[draft.sequence]!.add(length, clip: options.clip)
        }
        if options.keepSearches { keptLengths[draft.sequence, default: []].append(length) }
    }

    /// The lengths of `draft`, which is being emitted (its lengths aside are let go).
    mutating func takeLengths(of draft: Draft) -> LengthProfile {
        draft.lengthsAside ? asideLengths.removeValue(forKey: draft.sequence)! : LengthProfile(draft.lengths)
    }
}
