import AreasControl
import AreasSystem
import Foundation

let command: ControlCommand
do {
    command = try ControlCommand.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
    StandardError.write("areasctl: \(error)\n\(ControlCommand.usage)\n")
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
