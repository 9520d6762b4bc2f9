#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The platform's libcrypto (OpenSSL), found at run time for one function: SHA-256's block
/// compression, which uses the CPU's SHA instructions where it has them, several times faster
/// than `SHA256`'s own. `searches.csv` pseudonymizes every token and user with HMAC-SHA256.
///
/// PlacesCost links no library beyond the Swift runtime: without libcrypto (or on macOS, whose
/// system libcrypto may not be loaded by applications) `SHA256` compresses blocks itself, with
/// the same result. `PLACESCOST_LIBCRYPTO` names another library, or, empty, none (the tests
/// hold both paths to each other). A library whose compression of a known block differs from
/// `SHA256`'s is not used.
struct LibCrypto: @unchecked Sendable {
    /// `SHA256_Transform(SHA256_CTX *, const unsigned char *)`: compresses one 64-byte block into
    /// the context's eight state words, which `SHA256_CTX` holds first, as `unsigned int h[8]`.
    typealias Transform = @convention(c) (UnsafeMutableRawPointer, UnsafeRawPointer) -> Void

    let transform: Transform
    /// The library file that was opened, for messages.
    let library: String

    /// `sizeof(SHA256_CTX)`: the state, two length words, a 64-byte block and two counters.
    static let contextSize = 112

    /// The library used for this process, chosen once: `PLACESCOST_LIBCRYPTO`, or the platform's.
    static let chosen: LibCrypto? = {
        if let named = getenv("PLACESCOST_LIBCRYPTO") {
            let name = String(cString: named)
            return name.isEmpty ? nil : load(candidates: [name])
        }
        #if canImport(Darwin)
        return nil
        #else
        return load(candidates: ["libcrypto.so.3", "libcrypto.so"])
        #endif
    }()

    static func load(candidates: [String]) -> LibCrypto? {
        for candidate in candidates {
            guard let handle = dlopen(candidate, RTLD_NOW | RTLD_LOCAL), let symbol = dlsym(handle, "SHA256_Transform") else { continue }
            let library = LibCrypto(transform: unsafeBitCast(symbol, to: Transform.self), library: candidate)
            guard library.agreesWithSHA256() else { continue }
            return library
        }
        return nil
    }

    /// Folds one 64-byte block into `state`.
    @inline(__always)
    func compress(_ block: UnsafeRawPointer, into state: inout SIMD8<UInt32>) {
        withUnsafeTemporaryAllocation(byteCount: LibCrypto.contextSize, alignment: 16) { context in
            let base = context.baseAddress!
            base.initializeMemory(as: UInt8.self, repeating: 0, count: LibCrypto.contextSize)
            base.storeBytes(of: state, as: SIMD8<UInt32>.self)
            transform(base, block)
            state = base.load(as: SIMD8<UInt32>.self)
        }
    }

    /// Whether the library compresses a known block to `SHA256`'s own result.
    private func agreesWithSHA256() -> Bool {
        let block = (0..<64).map { UInt8(truncatingIfNeeded: $0 &* 29 &+ 7) }
        var own = SHA256.State.initial.words
        var theirs = own
        block.withUnsafeBytes { SHA256.compressWithoutLibrary($0.baseAddress!, into: &own) }
        block.withUnsafeBytes { compress($0.baseAddress!, into: &theirs) }
        return own == theirs
    }
}
