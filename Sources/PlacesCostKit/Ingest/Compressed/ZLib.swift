#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The platform's zlib, found at run time: the five functions gzip input needs, looked up by name.
///
/// PlacesCost links no library beyond the Swift runtime, so zlib is opened with `dlopen` the
/// first time a gzip input is met (`libz.so.1` on Linux, `/usr/lib/libz.1.dylib` on macOS); a
/// machine without it still reads every plain log, and says how to read a compressed one
/// (`zcat FILE | placescost analyze -`). Only `Inflater` calls these functions: keep every use
/// of a `Stream` pointer there.
///
/// Invariant: `Stream` has the exact layout of zlib's `z_stream` (`zlib.h`), checked by
/// `layoutMatchesC` before a library is used and again by zlib itself, which compares the size
/// passed to `inflateInit2_` with its own; a mismatch means the library is not used.
struct ZLib: @unchecked Sendable {
    /// zlib's `z_stream`, field for field. `uInt` is `UInt32`; `uLong` is C's `unsigned long`,
    /// which is `UInt` on every LP64 and ILP32 platform Swift runs on (not on 64-bit Windows).
    struct Stream {
        var nextIn: UnsafeMutablePointer<UInt8>? = nil
        var availIn: UInt32 = 0
        var totalIn: UInt = 0
        var nextOut: UnsafeMutablePointer<UInt8>? = nil
        var availOut: UInt32 = 0
        var totalOut: UInt = 0
        var msg: UnsafePointer<CChar>? = nil
        var state: OpaquePointer? = nil
        var zalloc: OpaquePointer? = nil
        var zfree: OpaquePointer? = nil
        var opaque: UnsafeMutableRawPointer? = nil
        var dataType: Int32 = 0
        var adler: UInt = 0
        var reserved: UInt = 0
    }

    // The stream argument, a `z_streamp`, is a pointer to a `Stream`: C cannot name a Swift struct.
    typealias VersionFunction = @convention(c) () -> UnsafePointer<CChar>?
    typealias InitFunction = @convention(c) (UnsafeMutableRawPointer, Int32, UnsafePointer<CChar>, Int32) -> Int32
    typealias InflateFunction = @convention(c) (UnsafeMutableRawPointer, Int32) -> Int32
    typealias StreamFunction = @convention(c) (UnsafeMutableRawPointer) -> Int32

    /// `zlibVersion()`: passed back to `inflateInit2_`, which checks its major version.
    let version: UnsafePointer<CChar>
    let inflateInit2: InitFunction
    let inflate: InflateFunction
    let inflateEnd: StreamFunction
    let inflateReset: StreamFunction
    /// The library file that was opened, for messages.
    let library: String

    // Return codes and arguments of `zlib.h`.
    static let ok: Int32 = 0
    static let streamEnd: Int32 = 1
    static let needDictionary: Int32 = 2
    static let bufferError: Int32 = -5
    static let noFlush: Int32 = 0
    /// 15 (the largest window) + 32: accept a gzip or a zlib header, told from the data.
    static let windowBitsAutomaticHeader: Int32 = 15 + 32

    /// Where the platform keeps zlib, most specific first.
    static var platformCandidates: [String] {
        #if canImport(Darwin)
        ["/usr/lib/libz.1.dylib", "libz.dylib"]
        #else
        ["libz.so.1", "libz.so"]
        #endif
    }

    /// The platform's zlib, opened once per process; `nil` when it is absent or unusable.
    static let platform: ZLib? = load(candidates: platformCandidates)

    /// zlib from `library` (`PLACESCOST_ZLIB`), or the platform's when `nil`; an empty name
    /// means none, as if zlib were absent.
    static func named(_ library: String?) -> ZLib? {
        guard let library else { return platform }
        return library.isEmpty ? nil : load(candidates: [library])
    }

    /// The first candidate that opens and has every function; `nil` when none does.
    static func load(candidates: [String]) -> ZLib? {
        guard layoutMatchesC else { return nil }
        for candidate in candidates {
            guard let handle = dlopen(candidate, RTLD_NOW | RTLD_LOCAL) else { continue }
            // Never closed: the functions stay valid for the life of the process.
            func symbol<Function>(_ name: String, as type: Function.Type) -> Function? {
                dlsym(handle, name).map { unsafeBitCast($0, to: type) }
            }
            guard let versionFunction = symbol("zlibVersion", as: VersionFunction.self),
                  let version = versionFunction(), Int(version.pointee) == Int(UInt8(ascii: "1")),
                  let inflateInit2 = symbol("inflateInit2_", as: InitFunction.self),
                  let inflate = symbol("inflate", as: InflateFunction.self),
                  let inflateEnd = symbol("inflateEnd", as: StreamFunction.self),
                  let inflateReset = symbol("inflateReset", as: StreamFunction.self)
            else {
                dlclose(handle)
                continue
            }
            return ZLib(version: version, inflateInit2: inflateInit2, inflate: inflate, inflateEnd: inflateEnd, inflateReset: inflateReset, library: candidate)
        }
        return nil
    }

    /// Whether `Stream` is laid out as C lays out `z_stream`: fourteen word-sized slots (the
    /// three `int`s are padded to a word), each field at its slot.
    static var layoutMatchesC: Bool {
        let word = MemoryLayout<UInt>.size
        guard MemoryLayout<UnsafeRawPointer>.size == word, MemoryLayout<Stream>.size == 14 * word else { return false }
        let offsets: [(PartialKeyPath<Stream>, Int)] = [
            (\.nextIn, 0), (\.availIn, 1), (\.totalIn, 2), (\.nextOut, 3), (\.availOut, 4), (\.totalOut, 5), (\.msg, 6),
            (\.state, 7), (\.zalloc, 8), (\.zfree, 9), (\.opaque, 10), (\.dataType, 11), (\.adler, 12), (\.reserved, 13),
        ]
        return offsets.allSatisfy { MemoryLayout<Stream>.offset(of: $0.0) == $0.1 * word }
    }
}
