import Foundation

/// The encoder that writes price tables in the layout of `Pricing/*.json`.
enum JSONEncoderForTables {
    static func make() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}
