extension CallBlockBuilder {
    /// The mask id of a CSV `fields` cell, by `CallDecoder`'s rules (`Caches.cellMasks` keeps
    /// it apart from JSON arrays' text).
    func cellMask(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        // A delimited cell always decodes (any text is a list of names), so nothing is thrown.
        let names = try? CallDecoder.fieldNames(.string(String(decoding: bytes, as: UTF8.self)), delimitedCell: true)
        return catalogs.fieldMasks.id(for: names)
    }
}
