import Foundation
import PlacesCostKit

let context = CommandContext(
    standardOutput: FileDescriptorSink.standardOutput,
    standardError: FileDescriptorSink.standardError,
    workingDirectory: FileManager.default.currentDirectoryPath,
    executablePath: Bundle.main.executablePath
)
let code = CLI(arguments: Array(CommandLine.arguments.dropFirst()), context: context).run()
exit(code.rawValue)
