/// Turns a JSON array of records into JSON Lines that keep the array's line numbers: each
/// element on the line where it starts, compacted (whitespace outside strings dropped), with the
/// lines it spanned left blank after it.
///
/// `gcloud logging read --format=json`, the Cloud Logging console's download and `jq .` write an
/// array of pretty-printed entries; a log holds one record per line. Converted so, every reader of
/// JSON Lines reads the array unchanged (blank lines are skipped), and a warning names the line
/// the element starts on in the array's own file.
///
/// Rules to keep:
/// - Line `n` of the output is line `n` of the input: every newline of the input is written once,
///   in order. An element that starts on a line another element was written to (`[{...}, {...}]`
///   on one line) is moved to the next line, and the output then runs a line ahead until a line
///   it would leave blank is left out instead (`linesAhead`); an array written on one line has
///   none, and its elements are numbered as lines 1, 2, 3...
/// - Nothing is dropped that a reader would judge: what is not whitespace, a separator `,`, or
///   the array's own brackets is copied as an element, so a broken array gives malformed lines
///   (the strict parser words why, at their line), never a silently shorter log.
/// - What is wrong with the array and no line can show is a `Finding`, at the line of the file it
///   is found on: an array cut off between elements (`[{...},` and then the end), and separators
///   with no element before them (`[a,,b]`, `[a,]`).
/// - Work and memory are proportional to the input read: one byte of state a byte, no element
///   held whole (an element longer than a line may be is passed on as it comes, and the line
///   reader rejects it as overlong).
struct JSONArrayLines {
    private enum Place {
        /// Outside elements: whitespace, the arrays' brackets and the `,` between elements.
        case gap
        /// In an element, outside its strings, `depth` brackets deep (0: a bare scalar, which
        /// ends at whitespace, `,` or `]`).
        case element(depth: Int)
        /// In a string of an element, `depth` brackets deep; `escaped` after a backslash.
        case string(depth: Int, escaped: Bool)
    }

    /// What the array shows beside its elements, found in `finish`, with its line in the file.
    struct Finding: Equatable, Sendable {
        enum Kind: Equatable, Sendable {
            /// The input ends inside an array, between elements: no `]` closes it.
            case cutOff(elementsRead: Int)
            /// `count` separators with no element before them (`,,` or `[,`) or after them (`,]`),
            /// which JSON does not allow; `line` is the first one's.
            case emptyElements(count: Int)
        }

        var kind: Kind
        /// The 1-based line of the file.
        var line: Int

        /// A full sentence for a warning at `line`; it quotes nothing of the input.
        var reason: String {
            switch kind {
            case .cutOff(let elementsRead):
                "the JSON array is cut off after \(elementsRead) complete \(elementsRead == 1 ? "element" : "elements") (no `]` closes it); those were read. Export the log again if it was still being written."
            case .emptyElements(let count):
                (count == 1 ? "the JSON array has an empty element" : "the JSON array has \(count) empty elements, the first")
                    + " here (a `,` after `[` or another `,`, or before `]`), which is not JSON; the elements around "
                    + (count == 1 ? "it" : "them") + " were read. Check that no record was lost where the array was edited or written."
            }
        }
    }

    /// Where the array's structure stands in a gap: what a `,` or `]` there means.
    private enum Gap {
        /// After `[` (or outside an array): a `,` is an empty element, a `]` an empty array.
        case afterOpen
        /// After an element.
        case afterElement
        /// After a `,`: another `,` is an empty element, a `]` ends the array after one.
        case afterComma
    }

    private var place = Place.gap
    private var gap = Gap.afterOpen
    /// Newlines of the input read so far.
    private var inputNewlines = 0
    /// The line of the last byte of the input that was not whitespace.
    private var lastContentLine = 1
    /// Elements started so far, in every array.
    private var elements = 0
    private var emptyElements = 0
    /// The line of the last `,` between elements: where a `,]` is.
    private var commaLine = 1
    private var firstEmptyElementLine: Int?
    /// What `finish` found, in the order of their lines.
    private(set) var findings: [Finding] = []
    /// Whether an array is open: its `,`s separate elements and its `]` closes it.
    private var inArray = false
    /// Newlines of the input inside the element being copied, written after it.
    private var heldNewlines = 0
    /// Whether the current output line already holds an element.
    private var lineHoldsElement = false
    /// Bytes of a byte order mark matched at the input's start, or `nil` past the start.
    private var byteOrderMarkMatched: Int? = 0
    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]
    /// Lines the output runs ahead of the input (see the type's rules).
    private var linesAhead = 0

    /// Whether `head`, the first bytes of an input, is a JSON array of objects (or an empty
    /// array): `[`, then `{` or `]`, after whitespace and a byte order mark. An Apache error log's
    /// `[Fri Nov ...` is not.
    static func isArray(_ head: some Collection<UInt8>) -> Bool {
        var bytes = head.drop { [0x20, 0x09, 0x0A, 0x0D].contains($0) }
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            bytes = bytes.dropFirst(3).drop { [0x20, 0x09, 0x0A, 0x0D].contains($0) }
        }
        guard bytes.first == .openBracket else { return false }
        let next = bytes.dropFirst().first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
        return next == .openBrace || next == .closeBracket
    }

    /// Converts the next bytes of the input, appending the JSON Lines text to `output`.
    mutating func convert(_ input: UnsafeRawBufferPointer, into output: inout [UInt8]) {
        var bytes = input[...]
        // A byte order mark at the start is dropped, as the line readers drop one, however the
        // input is cut into pieces; bytes that only begin one are input like any other.
        while let matched = byteOrderMarkMatched, let first = bytes.first {
            if first == Self.byteOrderMark[matched] {
                bytes = bytes.dropFirst()
                byteOrderMarkMatched = matched + 1 < Self.byteOrderMark.count ? matched + 1 : nil
            } else {
                byteOrderMarkMatched = nil
                Self.byteOrderMark[..<matched].withUnsafeBytes { convert(run: $0, into: &output) }
            }
        }
        output.reserveCapacity(output.count + bytes.count)
        convert(run: UnsafeRawBufferPointer(rebasing: bytes), into: &output)
    }

    /// Bytes copied as they are inside a string: all but `"`, `\` and a newline.
    private static let plainInString: [Bool] = (0...255).map { ![UInt8.quote, .backslash, .newline].contains(UInt8($0)) }
    /// Bytes copied as they are inside an element, outside its strings: all but whitespace,
    /// `"` and the brackets.
    private static let plainInElement: [Bool] = (0...255).map {
        ![0x20, 0x09, UInt8.carriageReturn, .newline, .quote, .openBrace, .openBracket, .closeBrace, .closeBracket].contains(UInt8($0))
    }

    private mutating func convert(run bytes: UnsafeRawBufferPointer, into output: inout [UInt8]) {
        let plainInString = Self.plainInString, plainInElement = Self.plainInElement
        var index = 0
        while index < bytes.count {
            // A run that needs no decision (most of an element) is copied whole.
            var end = index
            switch place {
            case .string(_, false):
                while end < bytes.count, plainInString[Int(bytes[end])] { end += 1 }
            case .element(let depth) where depth > 0:
                while end < bytes.count, plainInElement[Int(bytes[end])] { end += 1 }
            default:
                break
            }
            if end > index {
                output.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[index..<end]))
                index = end
                continue
            }
            let byte = bytes[index]
            index += 1
            // Every newline comes here, none is in a run copied whole: the count is exact.
            let line = inputNewlines + 1
            switch byte {
            case .newline: inputNewlines += 1
            case 0x20, 0x09, .carriageReturn: break
            default: lastContentLine = line
            }
            switch place {
            case .string(let depth, let escaped):
                output.append(byte)
                if byte == .newline {
                    // A raw newline is not JSON, and it ends the output line too: both halves
                    // are then malformed lines, each at its own line.
                    lineHoldsElement = false
                    place = .string(depth: depth, escaped: false)
                } else if escaped {
                    place = .string(depth: depth, escaped: false)
                } else if byte == .backslash {
                    place = .string(depth: depth, escaped: true)
                } else if byte == .quote {
                    place = depth == 0 ? endElement(into: &output) : .element(depth: depth)
                }
            case .element(0):
                switch byte {
                case .newline:
                    place = endElement(into: &output)
                    lineBreak(into: &output)
                case 0x20, 0x09, .carriageReturn:
                    place = endElement(into: &output)
                case .comma where inArray:
                    place = endElement(into: &output)
                    gap = .afterComma
                    commaLine = line
                case .closeBracket where inArray:
                    place = endElement(into: &output)
                    inArray = false
                    gap = .afterOpen
                default:
                    output.append(byte)
                }
            case .element(let depth):
                switch byte {
                case .newline:
                    heldNewlines += 1
                case 0x20, 0x09, .carriageReturn:
                    break
                case .quote:
                    output.append(byte)
                    place = .string(depth: depth, escaped: false)
                case .openBrace, .openBracket:
                    output.append(byte)
                    place = .element(depth: depth + 1)
                case .closeBrace, .closeBracket:
                    output.append(byte)
                    place = depth == 1 ? endElement(into: &output) : .element(depth: depth - 1)
                default:
                    output.append(byte)
                }
            case .gap:
                switch byte {
                case .newline:
                    lineBreak(into: &output)
                case 0x20, 0x09, .carriageReturn:
                    break
                case .comma where inArray:
                    if gap != .afterElement { noteEmptyElement(line: line) }
                    gap = .afterComma
                    commaLine = line
                case .closeBracket where inArray:
                    if gap == .afterComma { noteEmptyElement(line: commaLine) }
                    inArray = false
                    gap = .afterOpen
                case .openBracket where !inArray:
                    inArray = true
                    gap = .afterOpen
                default:
                    place = startElement(byte, into: &output)
                }
            }
        }
    }

    /// Ends the input: an element cut short is written as it stands (a malformed last line); an
    /// array cut off between elements, and empty elements, are `findings`.
    mutating func finish(into output: inout [UInt8]) {
        if let firstEmptyElementLine {
            findings.append(Finding(kind: .emptyElements(count: emptyElements), line: firstEmptyElementLine))
        }
        if case .gap = place {
            // An element cut short is its own malformed line; cut between elements, nothing shows.
            if inArray { findings.append(Finding(kind: .cutOff(elementsRead: elements), line: lastContentLine)) }
            return
        }
        place = endElement(into: &output)
    }

    private mutating func noteEmptyElement(line: Int) {
        emptyElements += 1
        if firstEmptyElementLine == nil { firstEmptyElementLine = line }
    }

    /// A newline of the input between elements: a blank output line is left out while the
    /// output runs ahead.
    private mutating func lineBreak(into output: inout [UInt8]) {
        if linesAhead > 0, !lineHoldsElement {
            linesAhead -= 1
            return
        }
        output.append(.newline)
        lineHoldsElement = false
    }

    private mutating func startElement(_ byte: UInt8, into output: inout [UInt8]) -> Place {
        if lineHoldsElement {
            output.append(.newline)
            linesAhead += 1
        }
        lineHoldsElement = true
        elements += 1
        gap = .afterElement
        output.append(byte)
        switch byte {
        case .openBrace, .openBracket: return .element(depth: 1)
        case .quote: return .string(depth: 0, escaped: false)
        default: return .element(depth: 0)
        }
    }

    /// Writes the newlines the element spanned, so the output is as far ahead of the input as
    /// before the element.
    private mutating func endElement(into output: inout [UInt8]) -> Place {
        if heldNewlines > 0 {
            output.append(contentsOf: repeatElement(.newline, count: heldNewlines))
            heldNewlines = 0
            lineHoldsElement = false
        }
        return .gap
    }
}
