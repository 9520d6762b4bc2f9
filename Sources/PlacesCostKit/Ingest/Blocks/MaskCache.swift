/// Field-mask ids by the bytes a log writes a `fields` value in, per thread: each distinct text
/// is decoded once, and a call repeating the previous call's text is answered by comparing a few
/// bytes (`LastSeen`) rather than hashing them.
///
/// One cache per written form (a JSON array, a CSV cell, a URL parameter): the same bytes mean
/// other fields in each (`["a"]` is one field named `["a"]` in a CSV cell).
struct MaskCache {
    private var texts = ByteInterner()
    private var ids: [UInt32] = []
    private var last = LastSeen()

    /// The mask id of `bytes`, from `decode` the first time the text is seen.
    mutating func id(for bytes: UnsafeRawBufferPointer, decode: (UnsafeRawBufferPointer) -> UInt32) -> UInt32 {
        if let known = last.id(for: bytes) { return known }
        let (index, inserted) = texts.intern(bytes)
        if inserted { ids.append(decode(bytes)) }
        let mask = ids[Int(index)]
        last.remember(bytes, id: mask)
        return mask
    }
}
