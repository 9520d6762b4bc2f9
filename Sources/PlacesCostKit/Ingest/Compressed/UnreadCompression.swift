/// A compression that is not decompressed (only gzip is, `GzipDecompressor`), told from a file's
/// first bytes whatever its name, so such a file is said to be compressed, with the command that
/// decompresses it, instead of read as text that is no log.
package enum UnreadCompression: CaseIterable, Sendable {
    case xz, bzip2, zstd, lz4, lzip, unixCompress, zip, sevenZip

    /// The compression whose magic number `head` starts with, if any.
    static func detect(_ head: some Collection<UInt8>) -> UnreadCompression? {
        let bytes = Array(head.prefix(10))
        return allCases.first { compression in
            guard bytes.starts(with: compression.magic) else { return false }
            guard compression == .bzip2 else { return true }
            // "BZh" could begin a line of text: its block size digit and the magic number of its
            // first block (pi's digits) or of its end (an empty stream's) must follow.
            return bytes.count == 10 && (0x31...0x39).contains(bytes[3])
                && ([0x31, 0x41, 0x59, 0x26, 0x53, 0x59].elementsEqual(bytes[4...]) || [0x17, 0x72, 0x45, 0x38, 0x50, 0x90].elementsEqual(bytes[4...]))
        }
    }

    /// The first bytes every file of this compression starts with.
    private var magic: [UInt8] {
        switch self {
        case .xz: [0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00]
        case .bzip2: [0x42, 0x5A, 0x68]
        case .zstd: [0x28, 0xB5, 0x2F, 0xFD]
        case .lz4: [0x04, 0x22, 0x4D, 0x18]
        case .lzip: [0x4C, 0x5A, 0x49, 0x50]
        case .unixCompress: [0x1F, 0x9D]
        case .zip: [0x50, 0x4B, 0x03, 0x04]
        case .sevenZip: [0x37, 0x7A, 0xBC, 0xAF, 0x27, 0x1C]
        }
    }

    /// What the file is, as a phrase after "it is": `compressed with xz`.
    var described: String {
        switch self {
        case .xz: "compressed with xz"
        case .bzip2: "compressed with bzip2"
        case .zstd: "compressed with zstd"
        case .lz4: "compressed with lz4"
        case .lzip: "compressed with lzip"
        case .unixCompress: "compressed with compress (.Z)"
        case .zip: "a zip archive"
        case .sevenZip: "a 7-Zip archive"
        }
    }

    /// The command that writes the decompressed text of a file named after it to standard output.
    var streamCommand: String {
        switch self {
        case .xz: "xz -dc"
        case .bzip2: "bzip2 -dc"
        case .zstd: "zstd -dc"
        case .lz4: "lz4 -dc"
        case .lzip: "lzip -dc"
        case .unixCompress: "gzip -dc"
        case .zip: "unzip -p"
        case .sevenZip: "7z x -so"
        }
    }

    /// How to read `path` (shell-quoted already, or `<stdin>`): decompressed on the way in.
    func advice(for path: String) -> String {
        let verb = self == .zip || self == .sevenZip ? "Extract it" : "Decompress it"
        guard path != "<stdin>" else { return "\(verb) on the way in: \(streamCommand) FILE | placescost analyze -." }
        return "\(verb) on the way in: \(streamCommand) \(path) | placescost analyze -, or save it decompressed next to the other logs and analyze the folder."
    }
}
