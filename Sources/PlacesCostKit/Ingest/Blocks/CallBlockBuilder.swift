import Foundation

/// Fills a `CallBlock` from calls as they are read: files each in the partition of its walk, or,
/// outside every search, in the partition its fingerprint picks; the walks count them all.
///
/// Two entrances: `add(_ record:line:)` for the fast JSON Lines decoder's byte spans (the hot
/// path: no `String`, no allocation per call once the thread's caches know the strings; the
/// access-log decoder's twin is in `CallBlockBuilder+AccessLog.swift`), and `add(_ call:)` for
/// every other reader, which already made a `Call`. Both follow the same routing as
/// `SessionBuilder`:
/// - a token on an autocomplete, details or address validation call: walked by (project, token);
/// - no token, a user id, and autocomplete, details or geocoding: walked by (project, user);
/// - anything else: priced on its own.
package struct CallBlockBuilder {
    /// Per-thread lookups from a string's bytes to its catalog id, kept across blocks.
    struct Caches {
        var apis = ByteInterner()
        var apiInfo: [(code: APICode, generation: APIGeneration?, otherLabel: UInt32)] = []
        var labels = ByteInterner()
        var labelIDs: [UInt32] = []
        /// The last few API, project and platform strings with their ids: calls repeat a handful
        /// of them, and comparing a few bytes costs less than hashing them.
        var recentAPIs = RecentStrings()
        var recentProjects = RecentStrings()
        var recentPlatforms = RecentStrings()
        /// Field masks as JSON arrays, CSV cells (`CallBlockBuilder+CSV.swift`) and access-log
        /// URL values (`CallBlockBuilder+AccessLog.swift`).
        var jsonMasks = MaskCache()
        var cellMasks = MaskCache()
        var urlMasks = MaskCache()
        /// The layouts of recent JSON Lines records (`FastJSONLineDecoder.decodeLeadingLine`).
        let jsonLayouts = JSONLineLayouts()
        /// The hosts of absolute targets, as `RequestTarget` names them.
        var hostNames = HostNames()
    }

    let catalogs: CallCatalogs
    let window: TimeWindow
    /// The user's own proxy paths, for requests the slow path reads.
    let routes: RequestRoutes
    /// Whether token calls carry their user id on (for `searches.csv`).
    let keepUsers: Bool
    /// Set only by this type and its extensions.
    var block: CallBlock
    private var sequence: Int64

    init(block: CallBlock, catalogs: CallCatalogs, window: TimeWindow, keepUsers: Bool, routes: RequestRoutes = RequestRoutes()) {
        self.block = block
        self.catalogs = catalogs
        self.window = window
        self.keepUsers = keepUsers
        self.routes = routes
        self.sequence = Int64(block.index) << 32
    }

    // MARK: - Fast path

    /// Adds a call the fast decoder read from `line`: a JSON Lines record, or with
    /// `fieldsAsDelimitedCell` a CSV row (`FastCSVRowDecoder`), whose `fields` span is one cell.
    mutating func add(_ record: FastJSONRecord, line: UnsafeBufferPointer<UInt8>, caches: inout Caches, fieldsAsDelimitedCell: Bool = false) {
        let time = record.time
        if record.typedText { block.typedTextRecords += 1 }
        guard window.contains(time) else {
            block.outsideWindow += 1
            block.outsidePeriod.include(time)
            return
        }
        let apiBytes = span(line, record.api)
        let apiID: UInt32
        if let known = caches.recentAPIs.id(for: apiBytes) {
            apiID = known
        } else {
            apiID = apiInfo(apiBytes, caches: &caches).id
            caches.recentAPIs.remember(apiBytes, id: apiID)
        }
        let info = caches.apiInfo[Int(apiID)]
        let api = (code: info.code, generation: info.generation, otherLabel: info.otherLabel, id: apiID)
        var generation = api.generation
        if let version = record.apiVersion {
            generation = CallBlockBuilder.generation(span(line, version)) ?? api.generation
        }
        let token = record.sessionToken.flatMap { $0.count > 0 ? $0 : nil }
        let user = record.userID.flatMap { $0.count > 0 ? $0 : nil }
        var fields: UInt32 = 0
        if let value = record.fields {
            let bytes = span(line, value)
            fields = fieldsAsDelimitedCell
                ? caches.cellMasks.id(for: bytes) { cellMask($0) }
                : caches.jsonMasks.id(for: bytes) { jsonMask($0) }
        }
        var project: UInt32 = 0
        if let value = record.project {
            let bytes = span(line, value)
            if let known = caches.recentProjects.id(for: bytes) {
                project = known
            } else {
                project = label(bytes, caches: &caches)
                caches.recentProjects.remember(bytes, id: project)
            }
        }
        var platform: UInt32 = 0
        if let value = record.platform {
            let bytes = span(line, value)
            if let known = caches.recentPlatforms.id(for: bytes) {
                platform = known
            } else {
                platform = label(bytes, caches: &caches)
                caches.recentPlatforms.remember(bytes, id: platform)
            }
        }
        let routed = route(
            time: time.microseconds, api: api.code, otherAPI: api.otherLabel,
            generation: generation, fields: fields, project: project, platform: platform,
            inputLength: record.inputLength ?? -1, hasToken: token != nil, hasUser: user != nil,
            fingerprint: Fingerprint.of(line)
        )
        guard let routed else { return }
        if routed.byToken {
            let tokenBytes = span(line, token!)
            let userBytes = keepUsers ? user.map { span(line, $0) } : nil
            append(routed.call, key: tokenBytes, user: userBytes, project: project)
        } else {
            append(routed.call, key: span(line, user!), user: nil, project: project)
        }
    }

    /// The bytes of `span`, which the decoder took from `line`: inlined, with no checked slice,
    /// since it runs several times a call (the decoder has checked the bounds; `assert` rechecks).
    @inline(__always)
    private func span(_ line: UnsafeBufferPointer<UInt8>, _ span: ByteSpan) -> UnsafeRawBufferPointer {
        assert(span.start >= 0 && Int(span.start) + Int(span.count) <= line.count)
        return UnsafeRawBufferPointer(start: line.baseAddress.map { $0 + Int(span.start) }, count: Int(span.count))
    }

    private func apiInfo(_ bytes: UnsafeRawBufferPointer, caches: inout Caches) -> (code: APICode, generation: APIGeneration?, otherLabel: UInt32, id: UInt32) {
        let (id, inserted) = caches.apis.intern(bytes)
        if inserted {
            let (api, implied) = API.parse(String(decoding: bytes, as: UTF8.self))
            let other = api.isOther ? catalogs.labels.id(for: api.name) : 0
            caches.apiInfo.append((api.code, implied, other))
        }
        let info = caches.apiInfo[Int(id)]
        return (info.code, info.generation, info.otherLabel, id)
    }

    private func label(_ bytes: UnsafeRawBufferPointer, caches: inout Caches) -> UInt32 {
        guard bytes.count > 0 else { return 0 }
        let (id, inserted) = caches.labels.intern(bytes)
        if inserted { caches.labelIDs.append(catalogs.labels.id(for: String(decoding: bytes, as: UTF8.self))) }
        return caches.labelIDs[Int(id)]
    }

    /// The mask id of a `fields` array's text, by the slow parser's rules.
    private func jsonMask(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        var text = "{\"fields\":" + String(decoding: bytes, as: UTF8.self) + "}"
        let fields: [String]? = text.withUTF8 { line in
            guard case .success(let record) = JSONLineParser.parse(line) else { return nil }
            return try? CallDecoder.fieldNames(record[.fields], delimitedCell: false)
        }
        return catalogs.fieldMasks.id(for: fields)
    }

    /// `legacy` or `new`, in any case: each byte with its 0x20 bit set is the lowercase letter's.
    ///
    /// Compared as one word, never byte by byte through a closure: most lines name their API
    /// version.
    @inline(__always)
    package static func generation(_ bytes: UnsafeRawBufferPointer) -> APIGeneration? {
        switch bytes.count {
        case 6:
            let word = UInt64(UInt32(littleEndian: bytes.loadUnaligned(as: UInt32.self)))
                | UInt64(UInt16(littleEndian: bytes.loadUnaligned(fromByteOffset: 4, as: UInt16.self))) << 32
            return word | 0x2020_2020_2020 == 0x7963_6167_656C ? .legacy : nil  // "legacy"
        case 3:
            let word = UInt32(UInt16(littleEndian: bytes.loadUnaligned(as: UInt16.self))) | UInt32(bytes[2]) << 16
            return word | 0x20_2020 == 0x77_656E ? .new : nil  // "new"
        default:
            return nil
        }
    }

    // MARK: - Slow path

    /// Adds a call another reader made, with its record's `Fingerprint`; `typedText` when its
    /// record carried typed text (`RawRecord.carriesTypedText`).
    mutating func add(_ call: Call, fingerprint: UInt64, typedText: Bool = false, caches: inout Caches) {
        if typedText { block.typedTextRecords += 1 }
        guard window.contains(call.time) else {
            block.outsideWindow += 1
            block.outsidePeriod.include(call.time)
            return
        }
        let project = catalogs.labels.id(for: call.project)
        let platform = catalogs.labels.id(for: call.platform)
        let other = call.api.isOther ? catalogs.labels.id(for: call.api.name) : 0
        let routed = route(
            time: call.time.microseconds, api: call.api.code, otherAPI: other,
            generation: call.generation, fields: catalogs.fieldMasks.id(for: call.fields),
            project: project, platform: platform, inputLength: call.inputLength.map { Int32(clamping: $0) } ?? -1,
            hasToken: call.sessionToken != nil, hasUser: call.userID != nil, fingerprint: fingerprint
        )
        guard let routed else { return }
        var keyText = routed.byToken ? call.sessionToken! : call.userID!
        var userText = keepUsers && routed.byToken ? call.userID : nil
        keyText.withUTF8 { key in
            if var text = userText {
                text.withUTF8 { user in append(routed.call, key: UnsafeRawBufferPointer(key), user: UnsafeRawBufferPointer(user), project: project) }
            } else {
                append(routed.call, key: UnsafeRawBufferPointer(key), user: nil, project: project)
            }
        }
        userText = nil
    }

    /// Adds an access-log request: a call when it is a Places call, as `LogReader` files it.
    mutating func add(_ request: HTTPRequest, line: Int, caches: inout Caches) {
        switch PlacesRequestDecoder.decode(request, routes: routes) {
        case .call(let call, let bodyUnknown, let proxyHost):
            if bodyUnknown { block.bodiesUnknown += 1 }
            if let proxyHost { block.hosts.noteProxy(proxyHost) }
            add(call, fingerprint: request.fingerprint, caches: &caches)
        case .notPlaces(let host):
            block.skippedRequests += 1
            block.hosts.noteSkipped(host)
            block.hosts.notePrefix(ofTarget: request.target)
        case .notBilled(let kind):
            block.skippedRequests += 1
            block.unbilled.count(kind)
        case .malformed(let reason):
            reject(reason, line: line)
        }
    }

    // MARK: - Routing

    /// Returns a call in the period when a walk takes it by its key; a call outside every
    /// search goes to the partition its fingerprint picks, to be checked for duplicates and
    /// counted with the rest (`SessionStream.count`).
    mutating func route(
        time: Int64, api: APICode, otherAPI: UInt32, generation: APIGeneration?, fields: UInt32,
        project: UInt32, platform: UInt32, inputLength: Int32, hasToken: Bool, hasUser: Bool, fingerprint: UInt64
    ) -> (call: GroupCall, byToken: Bool)? {
        block.firstCall = min(block.firstCall ?? time, time)
        block.lastCall = max(block.lastCall ?? time, time)
        let byToken = hasToken && api.joinsTokenWalk
        let byUser = !hasToken && hasUser && api.joinsUserWalk
        var call = GroupCall(
            time: time, sequence: 0, keyHash: 0, fingerprint: fingerprint, keyStart: 0, keyCount: 0, userStart: 0,
            userCount: -1, project: project, platform: platform, otherAPI: otherAPI, fields: fields,
            inputLength: inputLength, api: api, generation: generation, byToken: byToken, base: false
        )
        guard byToken || byUser else {
            call.sequence = sequence
            // A duplicate must meet the call it repeats: both go to the partition of their
            // fingerprint. An unrepeatable call has no duplicate, so its position spreads it.
            call.keyHash = fingerprint != Fingerprint.unrepeatable ? fingerprint : Fingerprint.mum(UInt64(bitPattern: sequence), 0x9E37_79B9_7F4A_7C15)
            call.byToken = hasToken
            call.base = true
            sequence += 1
            block.partitions[partition(of: call.keyHash)].calls.append(call)
            return nil
        }
        return (call, byToken)
    }

    /// Files a walked call in the partition its key hashes to, with the key's bytes.
    mutating func append(_ call: GroupCall, key: UnsafeRawBufferPointer, user: UnsafeRawBufferPointer?, project: UInt32) {
        var call = call
        call.sequence = sequence
        sequence += 1
        call.keyHash = ByteInterner.hash(key)
        let hash = call.keyHash ^ (UInt64(project) &* 0x9E37_79B9_7F4A_7C15) ^ (call.byToken ? 0 : 0x5555)
        block.partitions[partition(of: hash)].file(call, key: key, user: user)
    }

    /// The partition a hash picks: its high half scaled to the partition count. Keep it a
    /// multiply, never a remainder: a division is a large share of filing a call.
    @inline(__always)
    private func partition(of hash: UInt64) -> Int {
        Int(truncatingIfNeeded: ((hash >> 32) &* UInt64(block.partitions.count)) >> 32)
    }

    // MARK: - Diagnostics

    /// A malformed record at `line` (counted from the block's start).
    mutating func reject(_ reason: String, line: Int) {
        block.rejected += 1
        note(reason, line: line)
    }

    /// A diagnostic that rejects nothing.
    mutating func note(_ reason: String, line: Int) {
        block.diagnosticCount += 1
        if block.diagnostics.count < LogReader.maxStoredDiagnostics {
            block.diagnostics.append(Diagnostic(location: SourceLocation(file: block.fileName, line: line), reason: reason))
        }
    }

    mutating func finish(lineCount: Int) -> CallBlock {
        block.lineCount = lineCount
        return block
    }
}
