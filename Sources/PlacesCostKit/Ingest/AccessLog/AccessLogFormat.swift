/// An nginx `log_format` string, compiled into the fields and literal text of a log line.
///
/// A variable's value runs up to the next occurrence of the literal text that follows it in the
/// format (or to the end of the line for a final variable). nginx quotes the variables that may
/// hold spaces (`"$request"`, `"$http_user_agent"`) and escapes `"` inside them, so the closing
/// quote bounds them. Variables written back to back (`$uri$is_args$args`) form one field that
/// cannot be split, so they are matched and ignored. Apache's combined and common lines have the
/// same shape as nginx's, so `combined` and `common` serve both servers.
package struct AccessLogFormat: Sendable, Equatable {
    /// The variables the parser reads; every other one is matched and ignored.
    package enum Variable: Sendable, Hashable {
        case remoteAddr, remoteUser, timeLocal, timeISO8601, msec, request, requestMethod, requestURI
        case status, bodyBytesSent, bytesSent, httpReferer, httpUserAgent, requestTime, host
        /// `$request_body`: a New-API request's JSON body (its input and session token).
        case requestBody
        /// `$http_NAME`, any request header but the referrer and user agent: the header's name,
        /// lowercased, underscores back to dashes (`$http_x_goog_fieldmask` is `x-goog-fieldmask`).
        case httpHeader(String)
        case other(String)

        init(name: String) {
            switch name {
            case "remote_addr": self = .remoteAddr
            case "remote_user": self = .remoteUser
            case "time_local": self = .timeLocal
            case "time_iso8601": self = .timeISO8601
            case "msec": self = .msec
            case "request": self = .request
            case "request_method": self = .requestMethod
            case "request_uri": self = .requestURI
            case "status": self = .status
            case "body_bytes_sent": self = .bodyBytesSent
            case "bytes_sent": self = .bytesSent
            case "http_referer": self = .httpReferer
            case "http_user_agent": self = .httpUserAgent
            case "request_time": self = .requestTime
            case "host": self = .host
            case "request_body": self = .requestBody
            case let header where header.hasPrefix("http_") && header.count > "http_".count:
                self = .httpHeader(String(header.dropFirst("http_".count).lowercased().map { $0 == "_" ? "-" : $0 }))
            default: self = .other(name)
            }
        }
    }

    /// One piece of a line: text that must appear as written, or a field.
    package enum Element: Sendable, Equatable {
        case literal([UInt8])
        /// One field; more than one variable when they are written with no text between them.
        case field([Variable])
    }

    /// Why a `log_format` string cannot be used.
    package struct Error: Swift.Error, Sendable, Equatable, CustomStringConvertible {
        package var description: String
    }

    package let elements: [Element]

    /// nginx's predefined `combined` format (Apache's `combined` writes the same shape).
    package static let combined = try! AccessLogFormat(
        #"$remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent "$http_referer" "$http_user_agent""#)
    /// The common log format: `combined` without the referrer and user agent.
    package static let common = try! AccessLogFormat(
        #"$remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent"#)

    /// An AWS Application Load Balancer's access log entry, read up to its user agent (the rest
    /// of the line is not read). Its time has microseconds; its request line an absolute URL.
    package static let awsALB = try! AccessLogFormat(
        #"$type $time_iso8601 $elb $client $target $request_processing_time $target_processing_time $response_processing_time $status $target_status_code $received_bytes $sent_bytes "$request" "$http_user_agent" $rest"#)

    /// The layouts `--log-format` takes by name.
    package static let named: KeyValuePairs<String, AccessLogFormat> = ["combined": .combined, "common": .common, "aws-alb": .awsALB]

    /// A named layout (`named`), else a `log_format` string compiled.
    package init(nameOrFormat text: String) throws {
        if let preset = AccessLogFormat.named.first(where: { $0.key == text })?.value {
            self = preset
        } else {
            try self.init(text)
        }
    }

    /// Compiles a `log_format` string (the part between the quotes of nginx's directive).
    ///
    /// - Throws: `AccessLogFormat.Error` when the format records no time, no request, or writes a
    ///   needed variable back to back with another so that it cannot be split off.
    package init(_ logFormat: String) throws {
        var elements: [Element] = []
        var literal: [UInt8] = []
        var variables: [Variable] = []
        func flushLiteral() {
            if !literal.isEmpty {
                elements.append(.literal(literal))
                literal = []
            }
        }
        func flushVariables() {
            if !variables.isEmpty {
                elements.append(.field(variables))
                variables = []
            }
        }
        let bytes = Array(logFormat.utf8)
        var index = 0
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "$"), let (name, next) = AccessLogFormat.variableName(in: bytes, at: index + 1) else {
                flushVariables()
                literal.append(bytes[index])
                index += 1
                continue
            }
            flushLiteral()
            variables.append(Variable(name: name))
            index = next
        }
        flushLiteral()
        flushVariables()
        self.elements = elements

        let needed: Set<Variable> = [.remoteUser, .timeLocal, .timeISO8601, .msec, .request, .requestMethod, .requestURI, .status]
        for case .field(let group) in elements where group.count > 1 {
            if let variable = group.first(where: needed.contains) {
                throw Error(description: "The log format writes $\(Self.name(of: variable)) right next to another variable, so a line cannot be split between them; put a space or other text between them.")
            }
        }
        let fields = Set(singleFields)
        guard !fields.isDisjoint(with: [.timeLocal, .timeISO8601, .msec]) else {
            throw Error(description: "The log format records no time; it needs $time_local, $time_iso8601 or $msec.")
        }
        guard fields.contains(.request) || (fields.contains(.requestMethod) && fields.contains(.requestURI)) else {
            throw Error(description: "The log format records no request; it needs $request, or $request_method and $request_uri.")
        }
    }

    /// The variables that are fields of their own.
    var singleFields: [Variable] {
        elements.compactMap { element in
            if case .field(let group) = element, group.count == 1 { return group[0] }
            return nil
        }
    }

    /// A name after `$`: letters, digits and `_`, or any text in `${...}`.
    private static func variableName(in bytes: [UInt8], at start: Int) -> (String, Int)? {
        guard start < bytes.count else { return nil }
        if bytes[start] == UInt8(ascii: "{") {
            guard let close = bytes[(start + 1)...].firstIndex(of: UInt8(ascii: "}")), close > start + 1 else { return nil }
            return (String(decoding: bytes[(start + 1)..<close], as: UTF8.self), close + 1)
        }
        var end = start
        while end < bytes.count, bytes[end] == UInt8(ascii: "_") || (bytes[end] >= UInt8(ascii: "0") && bytes[end] <= UInt8(ascii: "9"))
            || (bytes[end] | 0x20 >= UInt8(ascii: "a") && bytes[end] | 0x20 <= UInt8(ascii: "z")) {
            end += 1
        }
        guard end > start else { return nil }
        return (String(decoding: bytes[start..<end], as: UTF8.self), end)
    }

    /// The nginx name of a variable, for messages.
    static func name(of variable: Variable) -> String {
        switch variable {
        case .remoteAddr: "remote_addr"
        case .remoteUser: "remote_user"
        case .timeLocal: "time_local"
        case .timeISO8601: "time_iso8601"
        case .msec: "msec"
        case .request: "request"
        case .requestMethod: "request_method"
        case .requestURI: "request_uri"
        case .status: "status"
        case .bodyBytesSent: "body_bytes_sent"
        case .bytesSent: "bytes_sent"
        case .httpReferer: "http_referer"
        case .httpUserAgent: "http_user_agent"
        case .requestTime: "request_time"
        case .host: "host"
        case .requestBody: "request_body"
        case .httpHeader(let name): "http_" + String(name.map { $0 == "-" ? "_" : $0 })
        case .other(let name): name
        }
    }

    /// Splits a line into the value of each single-variable field, or says where it departs from
    /// the format. The reason names the format's text, never the line's.
    func match(_ line: UnsafeBufferPointer<UInt8>) -> Result<[Variable: Range<Int>], MatchFailure> {
        var values: [Variable: Range<Int>] = [:]
        values.reserveCapacity(elements.count)  // growing it took a tenth of matching a line
        var cursor = 0
        for (position, element) in elements.enumerated() {
            switch element {
            case .literal(let text):
                guard AccessLogFormat.hasPrefix(line, text, at: cursor) else {
                    // A literal after a field was found by the field's search, so only a leading one can fail.
                    return .failure(MatchFailure(reason: "the line does not match the log format: it does not start with \(describe(text))"))
                }
                cursor += text.count
            case .field(let group):
                var end = line.count
                if position + 1 < elements.count, case .literal(let next) = elements[position + 1] {
                    guard let found = AccessLogFormat.firstIndex(of: next, in: line, from: cursor) else {
                        return .failure(MatchFailure(reason: "the line does not match the log format: no \(describe(next)) after $\(Self.name(of: group[group.count - 1]))"))
                    }
                    end = found
                }
                if group.count == 1 { values[group[0]] = cursor..<end }
                cursor = end
            }
        }
        // Text after a format that ends in literal text is tolerated: many servers append fields
        // (`$request_time`, `$http_x_forwarded_for`) to `combined`.
        return .success(values)
    }

    /// Whether a line has the shape of this format (its fields may still be invalid).
    func matches(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        if case .success = match(line) { return true }
        return false
    }

    struct MatchFailure: Swift.Error {
        var reason: String
    }

    private func describe(_ literal: [UInt8]) -> String {
        let text = String(decoding: literal, as: UTF8.self)
        return text.allSatisfy({ $0 == " " }) ? "space" : "`\(text)`"
    }

    private static func hasPrefix(_ line: UnsafeBufferPointer<UInt8>, _ text: [UInt8], at start: Int) -> Bool {
        guard start + text.count <= line.count else { return false }
        for offset in 0..<text.count where line[start + offset] != text[offset] { return false }
        return true
    }

    private static func firstIndex(of text: [UInt8], in line: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard let first = text.first, text.count <= line.count, let base = line.baseAddress else { return nil }
        var index = start
        while index + text.count <= line.count {
            if line[index] == first, hasPrefix(line, text, at: index), !isEscapedQuote(base, at: index, fieldStart: start) { return index }
            index += 1
        }
        return nil
    }

    /// Whether the byte at `index` is a `"` escaped by a backslash inside the field that began at
    /// `fieldStart` (an odd run of backslashes before it): nginx's `escape=json` writes a quote
    /// inside a value as `\"`, which never closes the field.
    @inline(__always)
    static func isEscapedQuote(_ line: UnsafePointer<UInt8>, at index: Int, fieldStart: Int) -> Bool {
        guard line[index] == UInt8(ascii: "\""), index > fieldStart, line[index - 1] == UInt8(ascii: "\\") else { return false }
        var backslashes = 0
        var before = index - 1
        while before >= fieldStart, line[before] == UInt8(ascii: "\\") {
            backslashes += 1
            before -= 1
        }
        return backslashes % 2 == 1
    }
}
