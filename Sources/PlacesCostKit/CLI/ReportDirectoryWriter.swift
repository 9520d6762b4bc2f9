import Foundation

/// Writes a `ReportBundle` into the `--out` directory, creating it (and `charts/`) as needed.
struct ReportDirectoryWriter {
    let directory: String

    /// - Throws: `CLIError.cannotCreate` naming the directory or file that failed.
    func write(_ files: [(path: String, contents: String)]) throws {
        let manager = FileManager.default
        for file in files {
            let url = URL(fileURLWithPath: directory).appendingPathComponent(file.path)
            let folder = url.deletingLastPathComponent()
            do {
                try manager.createDirectory(at: folder, withIntermediateDirectories: true)
            } catch {
                throw CLIError.cannotCreate(path: folder.path, reason: reason(error))
            }
            do {
                try Data(file.contents.utf8).write(to: url, options: .atomic)
            } catch {
                throw CLIError.cannotCreate(path: url.path, reason: reason(error))
            }
        }
    }

    private func reason(_ error: Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        if nsError.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(nsError.code))) }
        return nsError.localizedDescription
    }
}
