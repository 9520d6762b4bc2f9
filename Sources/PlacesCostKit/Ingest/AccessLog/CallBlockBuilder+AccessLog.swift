extension CallBlockBuilder {
    /// Adds a request the fast access-log decoder read from `line`, as `add(_ request:line:caches:)`
    /// files the slow path's `HTTPRequest`: a Places call, or a skipped request.
    mutating func add(_ record: FastAccessLogRecord, line: UnsafeBufferPointer<UInt8>, caches: inout Caches) {
        add(record, line: line, fingerprint: record.fingerprint(in: line), caches: &caches)
    }

    /// Adds a request with its fingerprint, made only when the request is filed.
    @inline(__always)
    mutating func add(_ record: FastAccessLogRecord, line: UnsafeBufferPointer<UInt8>, fingerprint: @autoclosure () -> UInt64, caches: inout Caches) {
        let raw = UnsafeRawBufferPointer(line)
        func bytes(_ span: ByteSpan) -> UnsafeRawBufferPointer {
            UnsafeRawBufferPointer(rebasing: raw[Int(span.start) ..< Int(span.start) + Int(span.count)])
        }
        let host = record.host.map { caches.hostNames.name(bytes($0)) }
        guard let call = record.call else {
            block.skippedRequests += 1
            block.hosts.noteSkipped(host)
            block.hosts.notePrefix(ofPath: RequestHosts.path(ofTarget: bytes(record.target)))
            return
        }
        if let host, !PlacesRequestDecoder.googleHosts.contains(host) { block.hosts.noteProxy(host) }
        if call.bodyUnknown { block.bodiesUnknown += 1 }
        guard window.contains(record.time) else {
            block.outsideWindow += 1
            block.outsidePeriod.include(record.time)
            return
        }
        var fields: UInt32 = 0
        if let value = call.fields {
            fields = caches.urlMasks.id(for: bytes(value)) { catalogs.fieldMasks.id(for: FastAccessLogLineDecoder.fieldNames($0)) }
        }
        // An access log has no project or platform (label id 0), and the fast path no `other` API.
        let routed = route(
            time: record.time.microseconds, api: call.api, otherAPI: 0,
            generation: call.generation, fields: fields, project: 0, platform: 0, inputLength: call.inputLength ?? -1,
            hasToken: call.sessionToken != nil, hasUser: record.user != nil, fingerprint: fingerprint()
        )
        guard let routed else { return }
        if routed.byToken {
            append(routed.call, key: bytes(call.sessionToken!), user: keepUsers ? record.user.map(bytes) : nil, project: 0)
        } else {
            append(routed.call, key: bytes(record.user!), user: nil, project: 0)
        }
    }
}
