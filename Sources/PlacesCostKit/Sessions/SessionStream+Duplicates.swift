/// Exact duplicates (same time and fingerprint), looked for only among the current instant's calls.
extension SessionStream {
    /// Whether `event` repeats an earlier call of its instant; remembers it if not.
    mutating func isDuplicate(_ event: Event) -> Bool {
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

    /// Takes a dropped duplicate out of the counts made while reading.
    mutating func drop(_ event: Event) {
        let dropped = SearchTally.DroppedCall(
            api: event.api, otherAPI: event.base ? event.key : 0, platform: event.platform, generation: event.generation
        )
        tally.dropped[dropped, default: 0] += 1
        if event.api == API.autocompleteCode, !event.byToken { tally.anomalies.noTokenRequests -= 1 }
        if event.api == API.placeDetailsCode, event.fields == 0 { tally.anomalies.fieldsUnspecified -= 1 }
    }
}
