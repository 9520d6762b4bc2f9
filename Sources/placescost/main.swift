import Foundation
import PlacesCostKit

// A closed pipe must reach the tool as a failed write (EPIPE), not kill it with SIGPIPE: then
// every command stops the same way, quietly with exit 74, whatever it was writing (CLI.run()).
signal(SIGPIPE, SIG_IGN)
// Likewise a file size limit (`ulimit -f`): a failed write (EFBIG) with exit 74, not a core dump.
signal(SIGXFSZ, SIG_IGN)

// Ctrl-C, `kill` or a closed terminal remove what the run left half-made before it ends.
InterruptCleanup.shared.install()

let context = CommandContext(
    standardOutput: FileDescriptorSink.standardOutput,
    standardError: FileDescriptorSink.standardError,
    workingDirectory: FileManager.default.currentDirectoryPath,
    executablePath: Bundle.main.executablePath,
    standardInputIsTerminal: isatty(STDIN_FILENO) == 1
)
let code = CLI(arguments: Array(CommandLine.arguments.dropFirst()), context: context).run()
exit(code.rawValue)
