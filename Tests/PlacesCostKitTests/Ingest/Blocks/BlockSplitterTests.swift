import Foundation
import Testing
@testable import PlacesCostKit

/// Both ways of cutting JSON Lines and access logs into blocks, `MappedFile.Splitter` for files
/// and `BlockSplitter` for pipes and gzip, read back through `RawBlock.forEachLine`, give the
/// lines a line reader gives: each line at its number, and each line at or over the limit as
/// overlong, however many come in a row, however long, wherever they fall against the blocks,
/// the last one with or without its newline.
@Suite("Block splitters")
struct BlockSplitterTests {
    enum Seen: Equatable, CustomStringConvertible {
        case text(line: Int, bytes: Int)
        case overlong(line: Int)

        var description: String {
            switch self {
            case .text(let line, let bytes): "\(line): \(bytes) bytes"
            case .overlong(let line): "\(line): overlong"
            }
        }
    }

    /// A log's lines as the slow line reader numbers them.
    static func expected(_ text: [UInt8], maxLineLength: Int) -> [Seen] {
        var lines = text.split(separator: 0x0A, omittingEmptySubsequences: false)
        if text.last == 0x0A { lines.removeLast() }
        return lines.enumerated().map { index, line in
            line.count >= maxLineLength ? .overlong(line: index + 1) : .text(line: index + 1, bytes: line.count)
        }
    }

    /// The lines of `blocks`, numbered on from block to block.
    static func seen(_ blocks: [RawBlock], maxLineLength: Int) -> [Seen] {
        var seen: [Seen] = []
        var before = 0
        for block in blocks {
            before += block.forEachLine(maxLineLength: maxLineLength) { line in
                switch line {
                case .text(let bytes, let number): seen.append(.text(line: before + number, bytes: bytes.count))
                case .overlong(let number): seen.append(.overlong(line: before + number))
                }
            }
        }
        return seen
    }

    static func mappedBlocks(_ text: [UInt8], blockSize: Int, maxLineLength: Int) throws -> [RawBlock] {
        let directory = TemporaryDirectory()
        let descriptor = open(directory.write("log", bytes: text), O_RDONLY)
        defer { close(descriptor) }
        let file = try #require(MappedFile(descriptor: descriptor))
        var splitter = MappedFile.Splitter(file: file, blockSize: blockSize, maxLineLength: maxLineLength)
        var blocks: [RawBlock] = []
        while let (range, overlong) = splitter.next() {
            var block = RawBlock(index: 0, fileIndex: 0, fileName: "log", bytes: [], overlongLinesBefore: overlong)
            block.mapped = (file, range)
            blocks.append(block)
        }
        return blocks
    }

    /// The blocks of `text` read from a pipe, its first `prefix` bytes already read (as the
    /// format's sniffing leaves them), the rest written in pieces of `piece` bytes.
    static func pipedBlocks(_ text: [UInt8], prefix: Int, piece: Int, blockSize: Int, maxLineLength: Int) throws -> [RawBlock] {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        let (readEnd, writeEnd) = (ends[0], ends[1])
        defer { close(readEnd) }
        let rest = Array(text[prefix...])
        let writer = Thread {
            var offset = 0
            while offset < rest.count {
                let count = min(piece, rest.count - offset)
                let written = rest[offset..<offset + count].withUnsafeBytes { write(writeEnd, $0.baseAddress!, count) }
                guard written > 0 else { break }
                offset += written
            }
            close(writeEnd)
        }
        writer.start()
        var splitter = BlockSplitter(descriptor: readEnd, prefix: Array(text[..<prefix]), blockSize: blockSize, maxLineLength: maxLineLength)
        var blocks: [RawBlock] = []
        while let (bytes, overlong) = try splitter.next() {
            blocks.append(RawBlock(index: 0, fileIndex: 0, fileName: "log", bytes: bytes, overlongLinesBefore: overlong))
        }
        return blocks
    }

    /// A log of short lines, lines around the limit, and runs of lines over it, some many blocks long.
    static func log(_ random: inout SeededRandom, blockSize: Int, maxLineLength: Int) -> [UInt8] {
        var text: [UInt8] = []
        func line(_ length: Int) {
            text += (0..<length).map { UInt8(ascii: "a") + UInt8($0 % 26) }
        }
        for _ in 0...random.below(30) {
            switch random.below(8) {
            case 0, 1, 2: line(random.below(maxLineLength))
            case 3: line(maxLineLength - 1 + random.below(3))
            case 4: line(maxLineLength + random.below(5 * blockSize + maxLineLength))
            case 5:
                for _ in 0...random.below(4) {
                    line(maxLineLength + random.below(3 * blockSize))
                    text.append(0x0A)
                }
                continue
            case 6: line(0)
            default: line(random.below(8))
            }
            text.append(0x0A)
        }
        // The last line: with its newline, without, or over the limit without.
        switch random.below(3) {
        case 0: break
        case 1: line(1 + random.below(maxLineLength))
        default: line(maxLineLength + random.below(4 * blockSize))
        }
        return text
    }

    @Test("Every line at its number, every line over the limit counted, against the line reader's numbering", arguments: 0..<8)
    func againstLines(_ seed: Int) throws {
        var random = SeededRandom(seed: UInt64(seed))
        for _ in 0..<60 {
            let maxLineLength = [8, 50, 200][random.below(3)]
            let blockSize = [4, 16, 64, 257, 1024][random.below(5)]
            let text = Self.log(&random, blockSize: blockSize, maxLineLength: maxLineLength)
            let expected = Self.expected(text, maxLineLength: maxLineLength)
            let mapped = Self.seen(try Self.mappedBlocks(text, blockSize: blockSize, maxLineLength: maxLineLength), maxLineLength: maxLineLength)
            #expect(mapped == expected, "mapped, block \(blockSize), limit \(maxLineLength)")
            let prefix = random.below(min(text.count, 3 * maxLineLength) + 1)
            let piece = [1, 7, 100, 4096][random.below(4)]
            let piped = Self.seen(
                try Self.pipedBlocks(text, prefix: prefix, piece: piece, blockSize: blockSize, maxLineLength: maxLineLength), maxLineLength: maxLineLength)
            #expect(piped == expected, "piped, block \(blockSize), limit \(maxLineLength), prefix \(prefix), pieces of \(piece)")
        }
    }
}
