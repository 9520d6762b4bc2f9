import Foundation
import Testing
@testable import PlacesCostKit

/// zlib found at run time: the mirror of `z_stream` laid out as C lays it out, the platform's
/// library found where it is installed, and a missing one reported as absent, never a crash.
@Suite("ZLib")
struct ZLibTests {
    @Test("ZLib.Stream has z_stream's layout: fourteen words, each field at its C offset")
    func layout() {
        #expect(ZLib.layoutMatchesC)
        #if arch(x86_64) || arch(arm64)
        // zlib.h on LP64: 112 bytes, total_in at 16, msg at 48, data_type at 88, adler at 96.
        #expect(MemoryLayout<ZLib.Stream>.size == 112)
        #expect(MemoryLayout<ZLib.Stream>.offset(of: \.totalIn) == 16)
        #expect(MemoryLayout<ZLib.Stream>.offset(of: \.msg) == 48)
        #expect(MemoryLayout<ZLib.Stream>.offset(of: \.dataType) == 88)
        #expect(MemoryLayout<ZLib.Stream>.offset(of: \.adler) == 96)
        #endif
    }

    @Test("The platform's zlib loads wherever its library file is installed")
    func platform() {
        let installed = [
            "/lib/x86_64-linux-gnu/libz.so.1", "/usr/lib/x86_64-linux-gnu/libz.so.1", "/lib/aarch64-linux-gnu/libz.so.1",
            "/usr/lib/aarch64-linux-gnu/libz.so.1", "/usr/lib64/libz.so.1", "/lib64/libz.so.1", "/usr/lib/libz.so.1", "/usr/lib/libz.1.dylib",
        ].contains { FileManager.default.fileExists(atPath: $0) }
        if installed {
            #expect(ZLib.platform != nil)
        }
        if let zlib = ZLib.platform {
            #expect(String(cString: zlib.version).hasPrefix("1."))
            #expect(Inflater(zlib: zlib) != nil)
        }
    }

    @Test("A library that is missing, or is not zlib, or an empty name, is no zlib")
    func absent() {
        #expect(ZLib.load(candidates: ["/nonexistent/libz.so.1"]) == nil)
        #expect(ZLib.named("") == nil)
        #expect(ZLib.named("/nonexistent/libz.so.1") == nil)
        #if os(Linux)
        // A library without inflate.
        #expect(ZLib.load(candidates: ["libm.so.6"]) == nil)
        #endif
        #expect((ZLib.named(nil) == nil) == (ZLib.platform == nil))
    }

    @Test("The first candidate that loads is used")
    func candidates() {
        guard ZLib.platform != nil else { return }
        let zlib = ZLib.load(candidates: ["/nonexistent/libz.so.1"] + ZLib.platformCandidates)
        #expect(zlib?.library == ZLib.platformCandidates.first { ZLib.load(candidates: [$0]) != nil })
    }
}
