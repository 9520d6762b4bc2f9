extension CallBlockBuilder {
    /// Per-thread ids of the field lists access-log URLs carry, by their text as written (kept
    /// apart from the JSON Lines caches, whose keys are JSON array text).
    struct AccessLogCaches {
        var masks = ByteInterner()
        var maskIDs: [UInt32] = []
        var lastMask = LastSeen()
    }

    /// Adds a request the fast access-log decoder read from `line`, as `add(_ request:line:caches:)`
    /// files the slow path's `HTTPRequest`: a Places call, or a skipped request.
    mutating func add(_ record: FastAccessLogRecord, line: UnsafeBufferPointer<UInt8>, caches: inout Caches) {
        guard let call = record.call else {
            block.skippedRequests += 1
            return
        }
        if call.bodyUnknown { block.bodiesUnknown += 1 }
        guard window.contains(record.time) else {
            block.outsideWindow += 1
            return
        }
        let raw = UnsafeRawBufferPointer(line)
        func bytes(_ span: ByteSpan) -> UnsafeRawBufferPointer {
            UnsafeRawBufferPointer(rebasing: raw[Int(span.start) ..< Int(span.start) + Int(span.count)])
        }
        var fields: UInt32 = 0
        if let value = call.fields {
            let text = bytes(value)
            if let known = caches.accessLog.lastMask.id(for: text) {
                fields = known
            } else {
                let (id, inserted) = caches.accessLog.masks.intern(text)
                if inserted { caches.accessLog.maskIDs.append(catalogs.fieldMasks.id(for: FastAccessLogLineDecoder.fieldNames(text))) }
                fields = caches.accessLog.maskIDs[Int(id)]
                caches.accessLog.lastMask.remember(text, id: fields)
            }
        }
        // An access log has no project or platform (label id 0), and the fast path no `other` API.
        let routed = route(
            time: record.time.microseconds, api: call.api, otherLabel: 0,
            generation: call.generation, fields: fields, project: 0, platform: 0, inputLength: call.inputLength ?? -1,
            hasToken: call.sessionToken != nil, hasUser: record.user != nil, fingerprint: record.fingerprint(in: line)
        )
        guard let routed else { return }
        if routed.byToken {
            append(routed.call, key: bytes(call.sessionToken!), user: keepUsers ? record.user.map(bytes) : nil, project: 0)
        } else {
            append(routed.call, key: bytes(record.user!), user: nil, project: 0)
        }
    }
}
