/// The pseudonyms of the walk's user or token ids, by id: each user's is computed once, though a
/// user's searches spread over the whole log. 8 bytes and a bit a user, beside the user table's 31.
/// Ids are dense from 0, those of keys of the packed width and the others (`KeyTable.otherBit`)
/// each.
struct PseudonymCache {
    private var packed = DenseValues()
    private var other = DenseValues()

    subscript(id: UInt32) -> UInt64? {
        get { id & KeyTable.otherBit == 0 ? packed[Int(id)] : other[Int(id & ~KeyTable.otherBit)] }
        set {
            guard let newValue else { return }
            if id & KeyTable.otherBit == 0 {
                packed[Int(id)] = newValue
            } else {
                other[Int(id & ~KeyTable.otherBit)] = newValue
            }
        }
    }

    /// Keeps the values of the packed ids `KeyTable.compact` kept, under their new ids.
    mutating func renumberPacked(_ renumbered: [UInt32]) {
        var moved = DenseValues()
        for (id, newID) in renumbered.enumerated() where newID != .max {
            if let value = packed[id] { moved[Int(newID)] = value }
        }
        packed = moved
    }

    private struct DenseValues {
        private var values: [UInt64] = []
        private var known: [UInt64] = []

        subscript(index: Int) -> UInt64? {
            get {
                guard index < values.count, known[index >> 6] >> UInt64(index & 63) & 1 != 0 else { return nil }
                return values[index]
            }
            set {
                guard let newValue else { return }
                if index >= values.count {
                    let count = max(index + 1, values.count * 2, 1024)
                    values += [UInt64](repeating: 0, count: count - values.count)
                    known += [UInt64](repeating: 0, count: (count + 63) / 64 - known.count)
                }
                values[index] = newValue
                known[index >> 6] |= 1 << UInt64(index & 63)
            }
        }
    }
}
