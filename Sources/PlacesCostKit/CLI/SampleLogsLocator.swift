import Foundation

/// Finds the bundled `SampleLogs/` folder: in the working directory, or above the executable
/// (`.build/<triple>/<configuration>/placescost` lives a few levels below the package root).
struct SampleLogsLocator {
    static let folderName = "SampleLogs"

    func locate(workingDirectory: String, executablePath: String?) -> String? {
        var candidates = [workingDirectory]
        if let executablePath {
            var directory = URL(fileURLWithPath: executablePath).resolvingSymlinksInPath().deletingLastPathComponent()
            for _ in 0..<6 {
                candidates.append(directory.path)
                directory = directory.deletingLastPathComponent()
            }
        }
        for candidate in candidates {
            let path = URL(fileURLWithPath: candidate).appendingPathComponent(SampleLogsLocator.folderName).path
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
                return candidate == workingDirectory ? SampleLogsLocator.folderName : path
            }
        }
        return nil
    }
}
