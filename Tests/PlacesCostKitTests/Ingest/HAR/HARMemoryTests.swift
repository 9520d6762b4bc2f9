import Foundation
import Testing
@testable import PlacesCostKit

/// Reading a ~200 MB capture must not hold it: peak memory grows by the largest entry plus a
/// chunk, not by the file. Slow (it writes 200 MB), so it runs only when asked:
/// `PLACESCOST_HAR_MEMORY=1 swift test --filter HARMemory` (or `scripts/bench/har-memory.sh`).
@Suite("HARReader memory")
struct HARMemoryTests {
    static let limit = 150 << 20

    @Test("Streaming a 200 MB capture grows peak memory by less than 150 MB",
          .enabled(if: ProcessInfo.processInfo.environment["PLACESCOST_HAR_MEMORY"] == "1"))
    func boundedMemory() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("placescost-memory-\(UUID().uuidString).har")
        defer { try? FileManager.default.removeItem(at: url) }
        let beforeGenerating = Self.residentBytes()
        let generated = try Self.writeCapture(to: url)

        // Hand the generator's freed heap back to the kernel, or the reader's buffers would reuse
        // already-resident pages and the growth measured would be understated.
        Self.trimHeap()
        let peakWasReset = Self.resetPeak()
        let baseline = peakWasReset ? Self.residentBytes() : Self.peakBytes()
        let clock = ContinuousClock()
        let started = clock.now
        let descriptor = open(url.path, O_RDONLY)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        var requests = 0
        var malformed = 0
        var lastIndex = 0
        try HARReader().forEachEntry(fileDescriptor: descriptor) { entry in
            switch entry {
            case .request: requests += 1
            case .malformed: malformed += 1
            }
            lastIndex = entry.index
        }
        let elapsed = clock.now - started
        let growth = Self.peakBytes() - baseline
        print("""
            HAR memory: \(generated.bytes / 1_000_000) MB, \(requests) requests + \(malformed) malformed entries in \(elapsed); \
            peak grew \(String(format: "%.1f", Double(growth) / 1e6)) MB over a baseline of \(String(format: "%.1f", Double(baseline) / 1e6)) MB \
            (\(peakWasReset ? "peak reset before reading" : "peak not resettable: growth over the previous peak")); \
            largest entry \(generated.largestEntry / 1_000_000) MB; resident before generating \(beforeGenerating / 1_000_000) MB
            """)
        #expect(requests == generated.entries - generated.entries / 1_000)
        #expect(malformed == generated.entries / 1_000)
        #expect(lastIndex == generated.entries)
        #expect(growth < Self.limit)
    }

    /// Writes a capture of ~200 MB a megabyte at a time: 200,000 Places calls, one in 1,000
    /// without a url (malformed), one in 2,000 with a 300 KB response body, one 8 MB response body,
    /// and a 10 MB `pages` array before `entries`.
    static func writeCapture(to url: URL) throws -> (bytes: Int, entries: Int, largestEntry: Int) {
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else { throw CocoaError(.fileWriteUnknown) }
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        var pending = ""
        var written = 0
        func emit(_ text: String) throws {
            pending += text
            if pending.utf8.count >= 1 << 20 {
                written += pending.utf8.count
                try handle.write(contentsOf: Data(pending.utf8))
                pending = ""
            }
        }
        let entries = 200_000
        let page = #"{"id":"page_1","title":"\#(String(repeating: "t\\\"x", count: 2_500))","pageTimings":{}}"#
        try emit(#"{"log":{"version":"1.2","creator":{"name":"bench","version":"1"},"pages":["#)
        for index in 0..<1_000 { try emit((index == 0 ? "" : ",") + page) }
        try emit(#"],"entries":["#)
        let body300K = String(repeating: "{\\\"suggestions\\\":[]}", count: 15_000)
        let body8M = String(repeating: "0123456789abcdef\\u00e9", count: 8_000_000 / 22)
        var largestEntry = 0
        for index in 1...entries {
            let body = index == entries / 2 ? body8M : index % 2_000 == 1_000 ? body300K : "{}"
            let url = index % 1_000 == 0 ? "" : #""url":"https://places.googleapis.com/v1/places:autocomplete","#
            let entry = #"""
            {"startedDateTime":"2026-10-01T09:\#(String(format: "%02d:%02d", (index / 60) % 60, index % 60)).730Z","time":81.2,\#
            "request":{"method":"POST",\#(url)"httpVersion":"HTTP/2","headers":[{"name":"Content-Type","value":"application/json"},\#
            {"name":"X-Goog-Api-Key","value":"AIzaSyD-bench-key-0123456789"},{"name":"X-Goog-FieldMask","value":"suggestions.placePrediction.placeId,suggestions.placePrediction.text"}],\#
            "queryString":[],"cookies":[],"headersSize":-1,"bodySize":60,"postData":{"mimeType":"application/json",\#
            "text":"{\"input\":\"M\\u00fcn\#(index % 97)\",\"sessionToken\":\"s\#(index / 4)\"}"}},\#
            "response":{"status":200,"statusText":"","httpVersion":"HTTP/2","headers":[],"cookies":[],\#
            "content":{"size":\#(body.utf8.count),"mimeType":"application/json","text":"\#(body)"},"redirectURL":"","headersSize":-1,"bodySize":-1},\#
            "cache":{},"timings":{"send":0.1,"wait":80,"receive":1.1}}
            """#
            largestEntry = max(largestEntry, entry.utf8.count)
            try emit((index == 1 ? "" : ",\n") + entry)
        }
        try emit("]}}\n")
        written += pending.utf8.count
        try handle.write(contentsOf: Data(pending.utf8))
        return (written, entries, largestEntry)
    }

    /// Resets the kernel's peak resident size (Linux `clear_refs` 5); false where not possible.
    static func resetPeak() -> Bool {
        #if os(Linux)
        guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return false }
        defer { try? handle.close() }
        return (try? handle.write(contentsOf: Data("5".utf8))) != nil
        #else
        return false
        #endif
    }

    /// glibc's `malloc_trim(0)`, looked up at run time: the `Glibc` module does not export it.
    static func trimHeap() {
        #if os(Linux)
        guard let symbol = dlsym(nil, "malloc_trim") else { return }
        typealias Trim = @convention(c) (Int) -> Int32
        _ = unsafeBitCast(symbol, to: Trim.self)(0)
        #endif
    }

    static func residentBytes() -> Int {
        statusField("VmRSS:") ?? peakBytes()
    }

    /// Peak resident size: `VmHWM` on Linux, `ru_maxrss` elsewhere.
    static func peakBytes() -> Int {
        if let peak = statusField("VmHWM:") { return peak }
        var usage = rusage()
        #if canImport(Darwin)
        getrusage(RUSAGE_SELF, &usage)
        return Int(usage.ru_maxrss)  // bytes on Darwin
        #else
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Int(usage.ru_maxrss) * 1_024  // kilobytes elsewhere
        #endif
    }

    static func statusField(_ name: String) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix(name) {
            let kilobytes = line.dropFirst(name.count).split(separator: " ").first.flatMap { Int($0) }
            return kilobytes.map { $0 * 1_024 }
        }
        return nil
    }
}
