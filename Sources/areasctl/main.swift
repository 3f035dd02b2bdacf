import AreasCore
import AreasControl
import AreasProtocol
import AreasSystem
import Foundation

let command: ControlCommand
do {
    switch try ControlInvocation.parse(Array(CommandLine.arguments.dropFirst())) {
    case .text(let text):
        print(text, terminator: "")
        exit(0)
    case .manual(let roff):
        if !ManualPager.show(roff) { print(roff, terminator: "") }
        exit(0)
    case .ask(let asked):
        command = asked
    case .pipe(let socketPath, let timeout):
        exit(ClientSession.pipe(socketPath: socketPath, timeoutSeconds: timeout))
    case .version(let socketPath, let url, let timeout):
        exit(ClientSession.version(socketPath: socketPath, url: url, timeoutSeconds: timeout))
    }
} catch {
    StandardError.write("areasctl: \(error)\nrun 'areasctl --help' for usage\n")
    exit(2)
}
let path = command.socketPath ?? DefaultPaths.clientSocket(environment: ProcessInfo.processInfo.environment)
do {
    let answer = if let url = command.url {
        try HTTPQuestion.ask(command.request, at: url, timeoutSeconds: command.timeoutSeconds)
    } else {
        DaemonAnswer.line(try AreasClient(path: path, timeoutSeconds: command.timeoutSeconds).send(command.line))
    }
    let output = ResponseFormatter.render(answer, for: command, width: TerminalWidth.current(environment: ProcessInfo.processInfo.environment))
    print(output.stdout, terminator: "")
    StandardError.write(output.stderr)
    exit(output.status)
} catch let error where error.kind == .permissionDenied {
    // 77, as sysexits' EX_NOPERM: the same status as a refused refresh.
    StandardError.write("areasctl: \(error)\n")
    exit(77)
} catch {
    StandardError.write("areasctl: \(error)\n")
    exit(3)
}
