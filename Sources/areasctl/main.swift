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
    let answer = try client.send(command.request)
    let output = ResponseFormatter.render(answer, for: command)
    print(output.stdout, terminator: "")
    StandardError.write(output.stderr)
    // Nothing found in a province: say whether the name is one the data has.
    if let province = command.province, ResponseFormatter.count(of: answer) == 0,
       let known = ResponseFormatter.provinces(in: try client.send(Array(#"{"op":"stats"}"#.utf8))),
       let note = ControlCommand.provinceNote(province, known: known) {
        StandardError.write(note)
    }
    exit(output.status)
} catch {
    StandardError.write("areasctl: \(error)\n")
    exit(3)
}
