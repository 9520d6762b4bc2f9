import PlacesCostKit

extension LogReader {
    /// Reads every input. `-` is standard input; a directory means its log files, by name.
    ///
    /// - Throws: `IngestError` for a missing or unreadable input, a read failure, or (with
    ///   `strict`) the first malformed record.
    func read(_ paths: [String]) throws -> Output {
        var output = Output()
        var seen = Set<DuplicateKey>()
        for (path, listedInDirectory) in try LogReader.expand(paths) {
            do {
                try readOne(path, listedInDirectory: listedInDirectory, seen: &seen, into: &output)
            } catch let error as IngestError {
                throw error.naming(path == "-" ? "<stdin>" : path)
            }
        }
        return output
    }

    /// What makes two records exact duplicates.
    private struct DuplicateKey: Hashable {
        var time: Int64
        var fingerprint: UInt64
    }

    /// Reads one input, keeping every call in memory: the obviously-correct twin of the streamed
    /// pipeline (`CallPipeline`), duplicates included.
    private func readOne(_ path: String, listedInDirectory: Bool, seen: inout Set<DuplicateKey>, into output: inout Output) throws {
        guard var input = try open(path, listedInDirectory: listedInDirectory, into: &output) else { return }
        defer { input.close() }
        var calls: [Call] = []
        var duplicates = 0
        var known = seen
        defer { seen = known }
        try readRecords(&input, into: &output) { call, fingerprint in
            if fingerprint != Fingerprint.unrepeatable, !known.insert(DuplicateKey(time: call.time.microseconds, fingerprint: fingerprint)).inserted {
                duplicates += 1
                if options.dedupe { return }
            }
            calls.append(call)
        }
        try finishReading(&input, into: &output)
        output.duplicates += duplicates
        if options.dedupe { output.duplicatesDropped += duplicates }
        output.calls += calls
    }
}
