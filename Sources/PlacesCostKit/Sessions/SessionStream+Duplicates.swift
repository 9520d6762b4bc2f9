/// Exact duplicates (same time and fingerprint), looked for only among the current instant's
/// calls, and the count of every call kept, made once here, after that check.
extension SessionStream {
    /// Whether `event` repeats an earlier call of its instant; remembers it if not.
    mutating func isDuplicate(_ event: Event) -> Bool {
        if event.fingerprint == Fingerprint.unrepeatable { return false }
        if event.time != instant {
            instant = event.time
            instantFingerprints[0] = event.fingerprint
            if instantCount >= SessionStream.instantScanLimit { instantSet.removeAll(keepingCapacity: true) }
            instantCount = 1
            return false
        }
        if instantCount < SessionStream.instantScanLimit {
            for index in 0..<instantCount where instantFingerprints[index] == event.fingerprint { return true }
            instantFingerprints[instantCount] = event.fingerprint
            instantCount += 1
            if instantCount == SessionStream.instantScanLimit { instantSet = Set(instantFingerprints) }
            return false
        }
        instantCount += 1
        return !instantSet.insert(event.fingerprint).inserted
    }

    /// Counts a kept call: its API, platform, and the anomalies one call shows by itself.
    @inline(__always)
    mutating func count(_ event: Event) {
        tally.calls.add(api: event.api, otherAPI: event.otherAPI, platform: event.platform, generation: event.generation)
        if event.api == .autocomplete, !event.byToken { tally.anomalies.noTokenRequests += 1 }
        if event.api == .placeDetails, event.fields == 0 { tally.anomalies.fieldsUnspecified += 1 }
        if let by = options.groupBy { countInGroup(event, by) }
    }
}
