/// A gRPC request body as a capture shows it: a frame of 5 bytes (a compression flag and the
/// message's length), then the message in binary protobuf, as the Places SDKs (New) send
/// `google.maps.places.v1.Places` calls.
///
/// A capture writes the body as text, decoded as UTF-8 (mitmproxy's HAR writer takes
/// `get_text(strict=False)`): a byte under 0x80 is itself, a string field's UTF-8 text is intact,
/// and a byte that is no UTF-8 becomes U+FFFD (its `\\udcXX` escape, `JSONLineParser.Scanner.
/// surrogateEscapes`), one per byte, its value lost. So the message is read as Unicode scalars:
/// every tag, length and varint must be one scalar under 0x80 (field numbers under 16, lengths
/// under 128); a field's bytes are counted as its scalars' UTF-8 bytes, U+FFFD as one, so fixed
/// numbers (a location bias's doubles) and sub-messages are skipped whatever their bytes; and
/// anything else leaves the body unread (`nil`), its call then counted as one whose body is
/// unknown. Field numbers are those of
/// `google/maps/places/v1/places_service.proto` (`JSPBMessage` reads the same fields).
struct GRPCMessage {
    /// The length-delimited fields read, by number; the last one of a number wins, as protobuf says.
    private var strings: [Int: String] = [:]

    /// `nil` when the text is not a message this reader can follow to its end.
    init?(_ text: String) {
        let scalars = Array(text.unicodeScalars)
        guard scalars.count >= 5, scalars[0].value == 0 else { return nil }  // 1: compressed, not read
        var index = 5
        /// The next scalar as one byte of structure.
        func byte() -> Int? {
            guard index < scalars.count, scalars[index].value < 0x80 else { return nil }
            defer { index += 1 }
            return Int(scalars[index].value)
        }
        /// Takes scalars up to `length` bytes: each its UTF-8 length, U+FFFD (a byte that was no
        /// UTF-8) one; `nil` when they do not end on it.
        func take(_ length: Int) -> String? {
            var bytes = 0
            var value = String.UnicodeScalarView()
            while bytes < length {
                guard index < scalars.count else { return nil }
                bytes += scalars[index] == "\u{FFFD}" ? 1 : String(scalars[index]).utf8.count
                value.append(scalars[index])
                index += 1
            }
            return bytes == length ? String(value) : nil
        }
        while index < scalars.count {
            guard let tag = byte(), tag >> 3 > 0 else { return nil }
            switch tag & 7 {
            case 0:
                guard byte() != nil else { return nil }  // a one-byte varint (a bool, a small enum)
            case 1:
                guard take(8) != nil else { return nil }  // a double
            case 2:
                guard let length = byte(), let value = take(length) else { return nil }
                strings[tag >> 3] = value
            case 5:
                guard take(4) != nil else { return nil }  // a float
            default:
                return nil
            }
        }
    }

    /// The string of field `number`; `nil` when it is unset.
    func string(_ number: Int) -> String? {
        strings[number]
    }
}
