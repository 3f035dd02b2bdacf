import AreasCore
import AreasControl
import AreasSystem
import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "--help" || arguments.first == "-h" || arguments == ["help"] {
    print(ControlCommand.usage)
    exit(0)
}
if arguments.first == "--version" {
    print("areasctl \(AreasVersion.current)")
    exit(0)
}
let command: ControlCommand
do {
    command = try ControlCommand.parse(arguments)
} catch {
    StandardError.write("areasctl: \(error)\nrun 'areasctl --help' for usage\n")
    exit(2)
}
let path = command.socketPath ?? DefaultPaths.socket(environment: ProcessInfo.processInfo.environment)
do {
    let client = try AreasClient(path: path, timeoutSeconds: command.timeoutSeconds)
    let output = ResponseFormatter.render(try client.send(command.request), for: command)
    print(output.stdout, terminator: "")
    StandardError.write(output.stderr)
    exit(output.status)
} catch {
    StandardError.write("areasctl: \(error)\n")
    exit(3)
}
