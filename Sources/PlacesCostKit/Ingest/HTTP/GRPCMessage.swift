/// A gRPC request body as a capture shows it: a frame of 5 bytes (a compression flag and the
/// message's length), then the message in binary protobuf, as the Places SDKs (New) send
/// `google.maps.places.v1.Places` calls.
///
/// A capture writes the body as text, decoded as UTF-8 (mitmproxy's HAR writer takes
/// `get_text(strict=False)`): a byte under 0x80 is itself, a string field's UTF-8 text is intact,
/// and a byte that is no UTF-8 (a length of 128 or more, a fixed-width number) is lost. So the
/// message is read as Unicode scalars: every tag, length and varint must be one scalar under
/// 0x80 (field numbers under 16, lengths under 128), a string field takes scalars up to its
/// length in UTF-8 bytes, and anything else leaves the body unread (`nil`), its call then
/// counted as one whose body is unknown. Field numbers are those of
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
        while index < scalars.count {
            guard let tag = byte(), tag & 0x80 == 0, tag >> 3 > 0 else { return nil }
            switch tag & 7 {
            case 0:
                guard byte() != nil else { return nil }  // a one-byte varint (a bool, a small enum)
            case 2:
                guard let length = byte() else { return nil }
                var bytes = 0
                var value = String.UnicodeScalarView()
                while bytes < length {
                    guard index < scalars.count, scalars[index] != "\u{FFFD}" else { return nil }
                    bytes += String(scalars[index]).utf8.count
                    value.append(scalars[index])
                    index += 1
                }
                guard bytes == length else { return nil }
                strings[tag >> 3] = String(value)
            default:
                return nil  // fixed-width numbers: their bytes need not be text
            }
        }
    }

    /// The string of field `number`; `nil` when it is unset.
    func string(_ number: Int) -> String? {
        strings[number]
    }
}
