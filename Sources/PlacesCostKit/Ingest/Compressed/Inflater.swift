/// One zlib inflate stream: compressed bytes in, plain bytes out, a member at a time.
///
/// The only type that touches a `ZLib.Stream`. zlib keeps the stream's address in its own state
/// and refuses a stream that moved, so the stream lives in memory of its own, allocated once and
/// freed with the inflater; every pointer handed to zlib is valid only during one `inflate` call.
final class Inflater {
    /// What one call did.
    enum Step: Equatable {
        /// Input was used or output made; call again.
        case progress
        /// A gzip member ended, its check (CRC-32 and length) good: `reset` before the next one.
        case memberEnd
        /// Nothing could be done without more input.
        case needsInput
        /// The data is not valid compressed data: zlib's own reason (a fixed text, never the data).
        case damaged(String)
    }

    private let zlib: ZLib
    private let stream: UnsafeMutablePointer<ZLib.Stream>

    /// A stream that reads a gzip (or zlib) header; `nil` when zlib cannot start one (no memory).
    init?(zlib: ZLib) {
        self.zlib = zlib
        stream = .allocate(capacity: 1)
        stream.initialize(to: ZLib.Stream())
        guard zlib.inflateInit2(UnsafeMutableRawPointer(stream), ZLib.windowBitsAutomaticHeader, zlib.version, Int32(MemoryLayout<ZLib.Stream>.size)) == ZLib.ok else {
            stream.deallocate()
            return nil
        }
    }

    deinit {
        _ = zlib.inflateEnd(UnsafeMutableRawPointer(stream))
        stream.deallocate()
    }

    /// Inflates from `input` into `output` until either is used up or a member ends.
    ///
    /// - Returns: the step, and how many bytes of `input` were used and of `output` filled.
    func inflate(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) -> (step: Step, consumed: Int, produced: Int) {
        let inCount = min(input.count, Int(UInt32.max))
        let outCount = min(output.count, Int(UInt32.max))
        // zlib reads through `next_in` and never writes there; the C type lacks `const` only
        // because zlib is built without `Z_CONST`.
        stream.pointee.nextIn = inCount > 0 ? UnsafeMutablePointer(mutating: input.baseAddress!.assumingMemoryBound(to: UInt8.self)) : nil
        stream.pointee.availIn = UInt32(inCount)
        stream.pointee.nextOut = outCount > 0 ? output.baseAddress!.assumingMemoryBound(to: UInt8.self) : nil
        stream.pointee.availOut = UInt32(outCount)
        let code = zlib.inflate(UnsafeMutableRawPointer(stream), ZLib.noFlush)
        let consumed = inCount - Int(stream.pointee.availIn)
        let produced = outCount - Int(stream.pointee.availOut)
        stream.pointee.nextIn = nil
        stream.pointee.nextOut = nil
        let step: Step = switch code {
        case ZLib.ok: .progress
        case ZLib.streamEnd: .memberEnd
        case ZLib.bufferError: .needsInput
        case ZLib.needDictionary: .damaged("a preset dictionary is needed, which gzip never uses")
        default: .damaged(stream.pointee.msg.map { String(cString: $0) } ?? "zlib error \(code)")
        }
        return (step, consumed, produced)
    }

    /// Makes the stream ready for the next member of a concatenated gzip file.
    func reset() {
        _ = zlib.inflateReset(UnsafeMutableRawPointer(stream))
    }
}
