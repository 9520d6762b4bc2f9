import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a `ReportBundle` into the `--out` directory, all or nothing.
///
/// The rules to keep:
/// - Nothing in the directory changes until every file is written and synced into this run's
///   own staging folder, `DIR/.placescost-XXXXXX/new/`.
/// - The set is swapped in by steps that can each be undone: an earlier file is moved aside
///   into `staging/old/` before its replacement is moved in. If any step fails (a folder in the
///   way of one file, a permission), the steps done are undone in reverse, so every earlier
///   file is back (the same bytes, the same inode) and no new file remains; a directory the run
///   had to create is removed again.
/// - The set replaces the earlier report of the same command whole: a file of `replaces` the new
///   set does not write (a chart of an earlier `--by day`) is moved aside in the same swap, and
///   put back if the swap is undone. Every other file in the directory stays.
/// - Concurrent runs: creating a folder that exists by then is success, each run stages in a
///   folder of its own, and an exclusive `flock` on `DIR` for the length of a swap keeps two
///   swaps from interleaving, so the set in `DIR` is always one run's.
/// - A run holds a `flock` on its staging folder from creating it to removing it. The kernel
///   drops the lock when the process dies, so a staging folder that a later run can lock
///   without waiting belongs to a dead run (killed while writing) and is removed; one whose
///   lock is held is a live run's and is left alone.
/// - Interrupted (`InterruptCleanup`), a run removes its staging folder whatever its threads
///   still do until the signal ends it: they make files and folders only inside `new/` and
///   `old/`, never the staging folder again, and the removal goes on until the folder is gone.
///   The cleanup stays registered until the folder is removed, so a signal just after the swap
///   removes the earlier files moved aside.
struct ReportDirectoryWriter {
    let directory: String
    /// Every file the command writes into `--out` in any of its forms: those the new set leaves
    /// out are the earlier report's, and go with the swap.
    var replaces: [String] = []
    /// Where a staging registers its removal for an interruption; tests pass one of their own to
    /// interrupt a write at each moment a signal could be acted on.
    var interruptCleanup = InterruptCleanup.shared

    /// Names of staging folders: the prefix and `mkdtemp`'s six characters.
    static let stagingPrefix = ".placescost-"

    /// One step of the swap, undone in reverse order if a later step fails.
    private enum Step {
        /// The earlier file at this relative path was moved to `staging/old/`.
        case movedAside(String)
        /// The new file at this relative path was moved from `staging/new/` to its place.
        case movedIn(String)
    }

    /// - Throws: `CLIError.cannotCreate` naming the directory or file that cannot be made (73),
    ///   `CLIError.cannotWriteReport` naming the file a write to failed (74).
    func write(_ files: [(path: String, contents: String)]) throws {
        try write(files.map { ReportFile(path: $0.path, text: $0.contents) })
    }

    /// Writes `files`, streamed ones chunk by chunk, all or nothing (the rules above).
    func write(_ files: [ReportFile]) throws {
        try begin().commit(files)
    }

    /// Makes the directory and this run's staging folder, so that files can be started before
    /// the rest of the set is known (`Staging.start`); `Staging.commit` finishes the write.
    func begin() throws -> Staging {
        // Made and registered for removal at once: an interruption between the two would leave them.
        try interruptCleanup.withoutInterruption {
            let created = try makeDirectory(directory)
            do {
                let stage = try makeStaging()
                removeStaleStaging(except: stage.path)
                return Staging(writer: self, path: stage.path, lock: stage.lock, created: created)
            } catch {
                for folder in created.reversed() { rmdir(folder) }
                throw error
            }
        }
    }

    /// A write begun: the directory and the staging folder exist. Streamed files started here are
    /// written on threads of their own; `commit` writes the others, waits for every one and swaps
    /// the set in. A staging that is not committed (an error, or the analysis failed) is undone
    /// when it is abandoned or released: the staging folder removed, the folders the run created
    /// removed again, nothing in the directory changed.
    final class Staging: @unchecked Sendable {
        private let writer: ReportDirectoryWriter
        private let path: String
        private let lock: Int32
        private let leftovers: Leftovers
        private let group = DispatchGroup()
        private let failures = StreamFailures()
        /// Files started, by path, in order: they are swapped in with the rest.
        private var started: [String] = []
        private var isClosed = false

        /// This staging's entry in `InterruptCleanup`, until it is committed or abandoned.
        private var interruptCleanup: Int?

        fileprivate init(writer: ReportDirectoryWriter, path: String, lock: Int32, created: [String]) {
            self.writer = writer
            self.path = path
            self.lock = lock
            leftovers = Leftovers(path: path, created: created)
            // The leftovers, not `self`: a staging being released (an analysis that failed) is
            // no longer reachable weakly, and its folder is there until `abandon` removes it.
            interruptCleanup = writer.interruptCleanup.register { [leftovers] in leftovers.remove() }
        }

        /// Starts writing `file` into the staging folder on a thread of its own; it is handed to
        /// the disk there and synced by `commit`.
        func start(_ file: ReportFile) {
            started.append(file.path)
            let (writer, stage) = (writer, path)
            let failures = failures
            do {
                try makeStagedParents(of: file.path)
            } catch {
                failures.record(error)
                return
            }
            DispatchQueue.global().async(group: group) {
                do {
                    try writer.writeFile(stage + "/new/" + file.path, contents: file.contents, shownAs: writer.directory + "/" + file.path, sync: false)
                } catch {
                    failures.record(error)
                }
            }
        }

        /// The path in the staging folder where the file at `relative` is written, its folders made:
        /// for a file begun before it is started (`ReportFile.Contents.resumed`).
        func stagedPath(of relative: String) throws -> String {
            try makeStagedParents(of: relative)
            return path + "/new/" + relative
        }

        /// Writes `files` (streamed ones started on threads, the others here), waits for every file
        /// started, and swaps the whole set in; on any failure nothing in the directory changes.
        func commit(_ files: [ReportFile]) throws {
            defer { abandon() }
            // Streamed files are written on threads of their own while the others are rendered
            // and written here; every write has ended, failed or not, before anything is swapped.
            for file in files {
                if case .stream = file.contents { start(file) }
            }
            let rendered = files.filter { if case .stream = $0.contents { false } else { true } }
            do {
                for file in rendered { try makeStagedParents(of: file.path) }
                // Each file is rendered and written on a core of its own (`report.json` and
                // `report.html` take longest) and handed to the disk.
                let results = ParallelMap.results(count: rendered.count) { index -> Error? in
                    let file = rendered[index]
                    do {
                        try writer.writeFile(path + "/new/" + file.path, contents: file.contents, shownAs: writer.directory + "/" + file.path, sync: false)
                        return nil
                    } catch {
                        return error
                    }
                }
                // The first failure in the files' order, whatever thread met it first.
                if let error = results.lazy.compactMap({ $0 }).first { throw error }
            } catch {
                group.wait()
                throw error
            }
            group.wait()
            if let error = failures.first { throw error }
            // Only once every file is written is any synced, streamed ones too: the first `fsync`
            // commits the journal that records every one of them, so the wait is one commit, and
            // no file is created while an `fsync` holds the journal (creating one waits for it).
            let paths = started + rendered.map(\.path)
            for path in paths {
                try writer.sync(self.path + "/new/" + path, shownAs: writer.directory + "/" + path)
            }
            let written = Set(paths)
            let dropped = writer.replaces.filter { !written.contains($0) }
            for path in dropped { try writer.makeFolders(of: path, inside: self.path + "/old") }
            // An interruption waits for the swap: it moves the earlier files into the staging folder.
            try writer.interruptCleanup.withoutInterruption {
                // Every folder first, so that nothing is replaced unless everything can be.
                for path in paths {
                    leftovers.created += try writer.makeParents(of: path, under: writer.directory)
                }
                try writer.swap(paths, dropping: dropped, staging: path)
                leftovers.created = []
            }
        }

        /// The folders of `relative` under the staging's `new/` (where it is written) and `old/`
        /// (where the file it replaces goes during the swap).
        private func makeStagedParents(of relative: String) throws {
            try writer.makeFolders(of: relative, inside: path + "/new")
            try writer.makeFolders(of: relative, inside: path + "/old")
        }

        /// Undoes what was not committed (waiting for the files still being written) and removes
        /// the staging folder; committing or abandoning twice does nothing more.
        func abandon() {
            guard !isClosed else { return }
            isClosed = true
            group.wait()
            // Removed before the interruption's cleanup is dropped, and with interruptions held
            // off: a signal in between would find nothing to remove and end the run with the
            // folder (after a swap, the earlier report in `old/`) still there.
            writer.interruptCleanup.withoutInterruption {
                leftovers.remove()
                close(lock)
                if let interruptCleanup { writer.interruptCleanup.unregister(interruptCleanup) }
            }
        }

        deinit { abandon() }
    }

    /// What a staging leaves until it is removed, by `abandon` or by an interruption's cleanup:
    /// the staging folder and the folders the run made. Changed and read only with
    /// interruptions held off.
    private final class Leftovers: @unchecked Sendable {
        let path: String
        /// The folders this run made, outermost first; none once the set is swapped in.
        var created: [String]

        init(path: String, created: [String]) {
            self.path = path
            self.created = created
        }

        /// Removes the staging folder, whatever is still being written into it, and the folders
        /// made for it (a folder holding a file of the report by then is not empty, and stays).
        func remove() {
            ReportDirectoryWriter.removeTree(path)
            for folder in created.reversed() { rmdir(folder) }
        }
    }

    // MARK: The swap

    /// Moves the earlier report's files the set leaves out (`dropped`) aside and the staged files
    /// over their final names, or, if one cannot be, none of them.
    ///
    /// `staging/old/` already holds the folders of every path, so a step fails only at a rename.
    fileprivate func swap(_ paths: [String], dropping dropped: [String], staging: String) throws {
        let lock = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard lock >= 0 else { throw CLIError.cannotCreate(path: directory, reason: String(cString: strerror(errno))) }
        defer { close(lock) }
        while flock(lock, LOCK_EX) != 0, errno == EINTR {}
        var done: [Step] = []
        var failure: (path: String, reason: String)?
        steps: do {
            for path in dropped {
                let target = directory + "/" + path
                var info = stat()
                // None there, or a folder: no file of the earlier report.
                guard lstat(target, &info) == 0, info.st_mode & S_IFMT != S_IFDIR else { continue }
                if rename(target, staging + "/old/" + path) == 0 {
                    done.append(.movedAside(path))
                } else if errno != ENOENT {
                    failure = (target, String(cString: strerror(errno)))
                    break steps
                }
            }
            for path in paths {
                let target = directory + "/" + path
                var info = stat()
                if lstat(target, &info) == 0 {
                    guard info.st_mode & S_IFMT != S_IFDIR else {
                        failure = (target, "a directory is in the way")
                        break steps
                    }
                    if rename(target, staging + "/old/" + path) == 0 {
                        done.append(.movedAside(path))
                    } else if errno != ENOENT {
                        failure = (target, String(cString: strerror(errno)))
                        break steps
                    }
                }
                guard rename(staging + "/new/" + path, target) == 0 else {
                    failure = (target, String(cString: strerror(errno)))
                    break steps
                }
                done.append(.movedIn(path))
            }
        }
        guard let failure else {
            // The renames are durable once the directory is synced; a failure here changes nothing.
            fsync(lock)
            return
        }
        var restored = true
        for step in done.reversed() {
            switch step {
            case .movedIn(let path):
                if rename(directory + "/" + path, staging + "/new/" + path) != 0 { unlink(directory + "/" + path) }
            case .movedAside(let path):
                if rename(staging + "/old/" + path, directory + "/" + path) != 0 { restored = false }
            }
        }
        guard restored else {
            // The earlier files left in staging are all the user has: give the folder a name no
            // run removes, and say where it is.
            let kept = staging + "-kept"
            rename(staging, kept)
            throw CLIError.cannotCreate(path: failure.path, reason: "\(failure.reason), and some earlier files could not be put back: they are in \(kept)/old")
        }
        throw CLIError.cannotCreate(path: failure.path, reason: "\(failure.reason), so no file was replaced and the earlier report is unchanged")
    }

    // MARK: Folders

    /// Creates `path` and its missing parents; returns those this run created, outermost first.
    ///
    /// A folder that appears while we create it (a concurrent run making the same `--out`) is
    /// success: `mkdir` failing with `EEXIST` on what is now a directory is not an error.
    private func makeDirectory(_ path: String) throws -> [String] {
        var missing: [String] = []
        var url = URL(fileURLWithPath: path).standardizedFileURL
        var info = stat()
        while stat(url.path, &info) != 0 {
            missing.append(url.path)
            url.deleteLastPathComponent()
        }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw CLIError.cannotCreate(path: path, reason: "\(url.path) is a file, not a directory")
        }
        var created: [String] = []
        for folder in missing.reversed() {
            if mkdir(folder, 0o755) == 0 {
                created.append(folder)
                continue
            }
            let code = errno
            if code == EEXIST, isDirectory(folder) { continue }
            for made in created.reversed() { rmdir(made) }
            let reason = code == EEXIST ? "\(folder) is a file, not a directory" : String(cString: strerror(code))
            throw CLIError.cannotCreate(path: path, reason: reason)
        }
        return created
    }

    /// The folders of `relative` (such as `charts/`) under `root`, created as needed.
    @discardableResult
    fileprivate func makeParents(of relative: String, under root: String) throws -> [String] {
        let folder = (relative as NSString).deletingLastPathComponent
        guard !folder.isEmpty else { return [] }
        return try makeDirectory(root + "/" + folder)
    }

    /// Makes the folders of `relative` inside `root`, which must exist: never `root` itself or a
    /// folder above it. A writer still going on after an interruption's cleanup removed the
    /// staging folder so makes nothing (`ENOENT`), where making the missing parents would make
    /// the staging folder again, after every cleanup.
    fileprivate func makeFolders(of relative: String, inside root: String) throws {
        var folder = root
        for name in (relative as NSString).deletingLastPathComponent.split(separator: "/") {
            folder += "/" + name
            guard mkdir(folder, 0o755) != 0 else { continue }
            let code = errno
            guard code == EEXIST, isDirectory(folder) else {
                throw CLIError.cannotCreate(path: folder, reason: String(cString: strerror(code)))
            }
        }
    }

    private func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }

    // MARK: Staging folders

    /// This run's staging folder, created and locked for the run, with its `new/` and `old/`.
    ///
    /// Between `mkdtemp` and `flock` a concurrent run may take the new folder for a dead run's
    /// and remove it; the lock is then on a removed folder (or not had), so a fresh one is made.
    private func makeStaging() throws -> (path: String, lock: Int32) {
        for _ in 0..<16 {
            var template = Array((directory + "/" + ReportDirectoryWriter.stagingPrefix + "XXXXXX").utf8CString)
            guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
                throw CLIError.cannotCreate(path: directory, reason: String(cString: strerror(errno)))
            }
            let path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let lock = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard lock >= 0 else { continue }
            if flock(lock, LOCK_EX | LOCK_NB) == 0, isStill(lock, at: path) {
                guard mkdir(path + "/new", 0o700) == 0, mkdir(path + "/old", 0o700) == 0 else {
                    let reason = String(cString: strerror(errno))
                    Self.removeTree(path)
                    close(lock)
                    throw CLIError.cannotCreate(path: directory, reason: reason)
                }
                return (path, lock)
            }
            close(lock)
        }
        throw CLIError.cannotCreate(path: directory, reason: "other runs kept removing this run's staging folder")
    }

    /// Removes the staging folders that dead runs left in the directory; never a live run's.
    private func removeStaleStaging(except own: String) {
        let prefix = ReportDirectoryWriter.stagingPrefix
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        for name in names where name.hasPrefix(prefix) && name.utf8.count == prefix.utf8.count + 6 {
            let path = directory + "/" + name
            guard path != own else { continue }
            let lock = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard lock >= 0 else { continue }
            defer { close(lock) }
            // A held lock is a live run's; a folder renamed or replaced since `open` is not ours to judge.
            guard flock(lock, LOCK_EX | LOCK_NB) == 0, isStill(lock, at: path) else { continue }
            Self.removeTree(path)
        }
    }

    /// Whether the folder open as `descriptor` is still the one named `path`.
    private func isStill(_ descriptor: Int32, at path: String) -> Bool {
        var opened = stat(), named = stat()
        return fstat(descriptor, &opened) == 0 && lstat(path, &named) == 0 && opened.st_dev == named.st_dev && opened.st_ino == named.st_ino
    }

    // MARK: Files

    /// Writes a file, synced to disk before it returns, or with `sync` false only handed to the
    /// disk (`sync(_:shownAs:)` must follow before the file is swapped in).
    fileprivate func writeFile(_ path: String, contents: ReportFile.Contents, shownAs: String, sync: Bool = true) throws {
        let flags = if case .resumed = contents { O_WRONLY | O_CLOEXEC } else { O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC }
        let descriptor = open(path, flags, 0o644)
        guard descriptor >= 0 else { throw CLIError.cannotCreate(path: shownAs, reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        /// Bytes written so far.
        var total = 0
        func writeAll(_ bytes: UnsafeRawBufferPointer) throws {
            var offset = 0
            while offset < bytes.count {
                let written = SystemCall.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0, errno == EINTR { continue }
                // Created but not written: an I/O error (74), where a file that cannot be made is 73.
                guard written > 0 else { throw CLIError.cannotWriteReport(path: shownAs, reason: String(cString: strerror(errno))) }
                offset += written
            }
            total += bytes.count
        }
        // Each 16 MiB of a streamed file goes to disk as the rest is written, so the `fsync` below
        // waits for little of a large file.
        var handedToDisk = 0
        func writeHandingToDisk(_ chunk: UnsafeRawBufferPointer) throws {
            try writeAll(chunk)
            if total - handedToDisk >= 16 << 20 {
                SystemCall.startWriteback(descriptor, offset: handedToDisk, count: total - handedToDisk)
                handedToDisk = total
            }
        }
        switch contents {
        case .text(let render):
            var text = render()
            try text.withUTF8 { try writeAll(UnsafeRawBufferPointer($0)) }
        case .stream(let produce):
            try namingFile(shownAs) { try produce(writeHandingToDisk) }
        case .resumed(let produce):
            try namingFile(shownAs) {
                try produce({ offset in
                    guard lseek(descriptor, off_t(offset), SEEK_SET) == off_t(offset) else {
                        throw CLIError.cannotWriteReport(path: shownAs, reason: String(cString: strerror(errno)))
                    }
                    total = offset
                    handedToDisk = offset
                }, writeHandingToDisk)
            }
            // What was written during the walk past the rows kept goes.
            guard ftruncate(descriptor, off_t(total)) == 0 else { throw CLIError.cannotWriteReport(path: shownAs, reason: String(cString: strerror(errno))) }
        }
        guard sync else {
            SystemCall.startWriteback(descriptor, offset: 0, count: total)
            return
        }
        guard fsync(descriptor) == 0 else { throw CLIError.cannotWriteReport(path: shownAs, reason: String(cString: strerror(errno))) }
    }

    /// Runs `body`, a failure to read the rows back named as this file's.
    private func namingFile(_ shownAs: String, _ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as SearchRowsError {
            throw CLIError.cannotWriteReport(path: shownAs, reason: "\(error)")
        }
    }

    /// Waits until a file written with `sync` false is on disk.
    fileprivate func sync(_ path: String, shownAs: String) throws {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw CLIError.cannotWriteReport(path: shownAs, reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw CLIError.cannotWriteReport(path: shownAs, reason: String(cString: strerror(errno))) }
    }

    /// Removes a staging folder and all in it, while writers on other threads may still be making
    /// files in it.
    ///
    /// Writers make files and folders only inside `new/` and `old/`, never the staging folder
    /// itself (`makeFolders`), so once it is gone nothing is made in it again. A pass fails with
    /// `ENOTEMPTY` (or POSIX's other spelling, `EEXIST`) only where a writer made something after
    /// the pass listed that folder; each makes a few files, once, so passes are made until one
    /// removes the folder. Any other failure (a permission taken away) ends the removal.
    ///
    /// - Parameter listed: called with each folder's path once its entries are read, before they
    ///   are removed; tests make a file there, as a writer would.
    static func removeTree(_ path: String, listed: (String) -> Void = { _ in }) {
        while true {
            let code = path.withCString { removeEntry(named: $0, in: AT_FDCWD, shownAs: path, listed: listed) }
            guard code == ENOTEMPTY || code == EEXIST else { return }
        }
    }

    /// Removes the entry `name` of the folder open as `parent` (a folder with all in it, never
    /// following a link); returns 0, or the `errno` of the first failure. Gone already is done.
    private static func removeEntry(named name: UnsafePointer<CChar>, in parent: Int32, shownAs path: String, listed: (String) -> Void) -> Int32 {
        var info = stat()
        guard fstatat(parent, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { return errno == ENOENT ? 0 : errno }
        guard info.st_mode & S_IFMT == S_IFDIR else { return unlinkat(parent, name, 0) == 0 || errno == ENOENT ? 0 : errno }
        let descriptor = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return errno == ENOENT ? 0 : errno }
        guard let folder = fdopendir(descriptor) else {
            let code = errno
            close(descriptor)
            return code
        }
        defer { closedir(folder) }
        // Every name first, as bytes (a name need not be UTF-8), then the removals: a folder
        // changed while it is read may be read with an entry missed or twice.
        let dot = CChar(UInt8(ascii: "."))
        var names: [[CChar]] = []
        while let entry = readdir(folder) {
            let entryName = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }.map { CChar(bitPattern: $0) }) }
            // Not the folder itself (`.`) nor its parent (`..`); each name as a C string.
            if entryName != [dot], entryName != [dot, dot] { names.append(entryName + [0]) }
        }
        listed(path)
        for entryName in names {
            let code = entryName.withUnsafeBufferPointer { entryName in
                removeEntry(named: entryName.baseAddress!, in: dirfd(folder), shownAs: path + "/" + String(cString: entryName.baseAddress!), listed: listed)
            }
            guard code == 0 else { return code }
        }
        return unlinkat(parent, name, AT_REMOVEDIR) == 0 || errno == ENOENT ? 0 : errno
    }
}

/// The first error of the threads that write streamed files.
private final class StreamFailures: @unchecked Sendable {
    private let lock = NSLock()
    private var errors: [Error] = []

    func record(_ error: Error) {
        lock.lock()
        errors.append(error)
        lock.unlock()
    }

    var first: Error? {
        lock.lock()
        defer { lock.unlock() }
        return errors.first
    }
}
