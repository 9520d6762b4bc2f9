import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The key of `searches.csv`'s pseudonyms (`Pseudonymizer`): `PLACESCOST_HASH_KEY` when set,
/// otherwise a random key kept for the user in the platform's configuration folder.
///
/// The key is never derived from the log: a key made from the log's own tokens and user ids can
/// be recomputed by anyone who guesses those ids, and a token-less log of guessable user ids
/// (`u-1`, `u-2`, ...) would then be reversed by hashing the guesses. A random key created once
/// per user keeps pseudonyms stable across reports made on one machine, so they still join, and
/// nothing about it can be learnt from the data. The file holds 64 hex digits, owner-only (0600)
/// in an owner-only folder (0700); concurrent first runs agree on one key, because each writes
/// its candidate under a private name and links it into place only if no key is there yet.
struct PseudonymKeyStore {
    /// Where the key came from, for the note a command prints.
    enum Source: Equatable {
        case environment
        case file(path: String, created: Bool)
        /// No configuration folder could hold the key: a key for this run only.
        case runOnly(reason: String)
    }

    /// The file name inside the configuration folder.
    static let fileName = "pseudonym.key"

    let environment: [String: String]

    /// `$XDG_CONFIG_HOME/placescost` (or `~/.config/placescost`) on Linux,
    /// `~/Library/Application Support/placescost` on macOS; `nil` without a home.
    var folder: String? {
        #if os(macOS)
        guard let home = environment["HOME"], home.hasPrefix("/") else { return nil }
        return home + "/Library/Application Support/placescost"
        #else
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") { return config + "/placescost" }
        guard let home = environment["HOME"], home.hasPrefix("/") else { return nil }
        return home + "/.config/placescost"
        #endif
    }

    /// The key and where it came from.
    ///
    /// - Throws: `PseudonymKeyError` when a key file exists but cannot be used; a missing or
    ///   unwritable folder is not an error (the key is then for this run only).
    func key() throws -> (key: [UInt8], source: Source) {
        if let variable = environment[Pseudonymizer.keyVariable], !variable.isEmpty {
            return (Array(variable.utf8), .environment)
        }
        guard let folder else {
            return (Self.randomKey(), .runOnly(reason: "neither XDG_CONFIG_HOME nor HOME names a folder"))
        }
        let path = folder + "/" + Self.fileName
        if let key = try readKey(path) { return (key, .file(path: path, created: false)) }
        if let reason = makeFolder(folder) { return (Self.randomKey(), .runOnly(reason: reason)) }
        let candidate = Self.randomKey()
        let temporary = folder + "/.\(Self.fileName).\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { return (candidate, .runOnly(reason: "\(folder) is not writable (\(Self.systemError()))")) }
        defer { unlink(temporary) }
        let text = Array((Self.hex(candidate) + "\n").utf8)
        let written = text.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        let synced = fsync(descriptor) == 0
        close(descriptor)
        guard written == text.count, synced else { return (candidate, .runOnly(reason: "\(path) could not be written (\(Self.systemError()))")) }
        // `link` never replaces: if another run made the key meanwhile, use theirs.
        if link(temporary, path) == 0 { return (candidate, .file(path: path, created: true)) }
        guard errno == EEXIST, let key = try readKey(path) else {
            return (candidate, .runOnly(reason: "\(path) could not be created (\(Self.systemError()))"))
        }
        return (key, .file(path: path, created: false))
    }

    /// The key in `path`; `nil` when there is no file.
    private func readKey(_ path: String) throws -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw PseudonymKeyError.unreadable(path: path, reason: Self.systemError())
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
            throw PseudonymKeyError.unreadable(path: path, reason: "it is not a regular file")
        }
        guard status.st_uid == geteuid() else {
            throw PseudonymKeyError.unreadable(path: path, reason: "it belongs to another user")
        }
        if status.st_mode & 0o077 != 0 {
            // Readable by others, the key protects nothing: make it owner-only again.
            guard fchmod(descriptor, 0o600) == 0 else { throw PseudonymKeyError.unreadable(path: path, reason: Self.systemError()) }
        }
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count >= 0 else { throw PseudonymKeyError.unreadable(path: path, reason: Self.systemError()) }
        var text = buffer.prefix(count)
        while let last = text.last, last == UInt8(ascii: "\n") || last == UInt8(ascii: "\r") { text.removeLast() }
        guard let key = Self.bytes(hex: text) else { throw PseudonymKeyError.malformed(path: path) }
        return key
    }

    /// Creates `folder` and its missing parents, owner-only; a reason when it cannot.
    private func makeFolder(_ folder: String) -> String? {
        var missing: [String] = []
        var path = folder
        var status = stat()
        while stat(path, &status) != 0 {
            guard errno == ENOENT else { return "\(path) cannot be read (\(Self.systemError()))" }
            missing.append(path)
            path = (path as NSString).deletingLastPathComponent
        }
        for path in missing.reversed() where mkdir(path, 0o700) != 0 && errno != EEXIST {
            return "\(path) cannot be created (\(Self.systemError()))"
        }
        return nil
    }

    /// Says where a new or run-only key came from; an existing key needs no word.
    static func note(_ source: Source, context: CommandContext) {
        switch source {
        case .environment, .file(_, created: false):
            break
        case .file(let path, created: true):
            context.note("made a random key for searches.csv's pseudonyms in \(path) (owner-only); reports made with it on this machine join on their pseudonyms.")
        case .runOnly(let reason):
            context.note("searches.csv's pseudonyms use a key for this run only, so they join no other report: \(reason). Set \(Pseudonymizer.keyVariable) to choose a key.")
        }
    }

    static func randomKey() -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        return String(decoding: bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0F)]] }, as: UTF8.self)
    }

    /// 64 hex digits as 32 bytes; `nil` for anything else.
    static func bytes<Text: Collection>(hex text: Text) -> [UInt8]? where Text.Element == UInt8 {
        guard text.count == 64 else { return nil }
        func value(_ digit: UInt8) -> UInt8? {
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        var bytes: [UInt8] = []
        var index = text.startIndex
        while index != text.endIndex {
            let next = text.index(after: index)
            guard let high = value(text[index]), let low = value(text[next]) else { return nil }
            bytes.append(high << 4 | low)
            index = text.index(after: next)
        }
        return bytes
    }

    private static func systemError() -> String {
        String(cString: strerror(errno))
    }
}
