extension CallBlockBuilder {
    /// CSV `fields` cells and their mask ids, apart from JSON arrays' text: the same bytes mean
    /// other fields in the two formats (`["a"]` is one field named `["a"]` in a CSV cell).
    struct CellMasks {
        var cells = ByteInterner()
        var ids: [UInt32] = []
        var last = LastSeen()
    }

    /// The mask id of a CSV `fields` cell, cleaned by `CallDecoder`'s rules once per distinct text.
    func cellMask(_ bytes: UnsafeRawBufferPointer, caches: inout Caches) -> UInt32 {
        if let known = caches.cellMasks.last.id(for: bytes) { return known }
        let (id, inserted) = caches.cellMasks.cells.intern(bytes)
        if inserted {
            // A delimited cell always decodes (any text is a list of names), so nothing is thrown.
            let names = try? CallDecoder.fieldNames(.string(String(decoding: bytes, as: UTF8.self)), delimitedCell: true)
            caches.cellMasks.ids.append(catalogs.fieldMasks.id(for: names))
        }
        let mask = caches.cellMasks.ids[Int(id)]
        caches.cellMasks.last.remember(bytes, id: mask)
        return mask
    }
}
