import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a `ReportBundle` into the `--out` directory, all or nothing.
///
/// Every file is first written into a hidden staging folder inside the directory, then renamed
/// over its final name: a failure part-way (a full disk, a permission) leaves the earlier
/// report as it was and no half-written file, and a directory the run had to create is removed
/// again, so an `--out` that cannot be written leaves nothing behind.
struct ReportDirectoryWriter {
    let directory: String

    /// - Throws: `CLIError.cannotCreate` naming the directory or file that failed.
    func write(_ files: [(path: String, contents: String)]) throws {
        var created: [String] = []
        var staging: String?
        do {
            created = try makeDirectory(directory)
            let stage = try makeStaging()
            staging = stage
            for file in files {
                try makeParents(of: file.path, under: stage)
                try writeFile(stage + "/" + file.path, contents: file.contents, shownAs: directory + "/" + file.path)
            }
            // Every folder first, so that nothing is replaced unless everything can be.
            for file in files {
                created += try makeParents(of: file.path, under: directory)
            }
            for file in files {
                guard rename(stage + "/" + file.path, directory + "/" + file.path) == 0 else {
                    throw CLIError.cannotCreate(path: directory + "/" + file.path, reason: String(cString: strerror(errno)))
                }
            }
            removeTree(stage)
        } catch {
            if let staging { removeTree(staging) }
            for folder in created.reversed() { rmdir(folder) }
            throw error
        }
    }

    /// Creates `path` and its missing parents; returns those it created, outermost first.
    private func makeDirectory(_ path: String) throws -> [String] {
        var missing: [String] = []
        var url = URL(fileURLWithPath: path).standardizedFileURL
        var isDirectory: ObjCBool = false
        while !FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) {
            missing.append(url.path)
            url.deleteLastPathComponent()
        }
        guard isDirectory.boolValue else {
            throw CLIError.cannotCreate(path: path, reason: "\(url.path) is a file, not a directory")
        }
        var created: [String] = []
        for folder in missing.reversed() {
            guard mkdir(folder, 0o755) == 0 else {
                let reason = String(cString: strerror(errno))
                for made in created.reversed() { rmdir(made) }
                throw CLIError.cannotCreate(path: path, reason: reason)
            }
            created.append(folder)
        }
        return created
    }

    /// The folders of `relative` (such as `charts/`) under `root`, created as needed.
    @discardableResult
    private func makeParents(of relative: String, under root: String) throws -> [String] {
        let folder = (relative as NSString).deletingLastPathComponent
        guard !folder.isEmpty else { return [] }
        return try makeDirectory(root + "/" + folder)
    }

    private func makeStaging() throws -> String {
        var template = Array((directory + "/.placescost-XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        guard made != nil else {
            throw CLIError.cannotCreate(path: directory, reason: String(cString: strerror(errno)))
        }
        return String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private func writeFile(_ path: String, contents: String, shownAs: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw CLIError.cannotCreate(path: shownAs, reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        var text = contents
        try text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0, errno == EINTR { continue }
                guard written > 0 else { throw CLIError.cannotCreate(path: shownAs, reason: String(cString: strerror(errno))) }
                offset += written
            }
        }
        guard fsync(descriptor) == 0 else { throw CLIError.cannotCreate(path: shownAs, reason: String(cString: strerror(errno))) }
    }

    /// Removes a staging folder and what is left in it.
    private func removeTree(_ path: String) {
        try? FileManager.default.removeItem(atPath: path)
    }
}
