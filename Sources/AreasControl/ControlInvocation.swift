import AreasCore
import AreasSystem

/// What one areasctl command line asks for: text areasctl prints itself (help, the version,
/// the manual, a completion script), or a question for the daemon.
package enum ControlInvocation: Sendable {
    case text(String)
    /// The manual page's roff source: shown through `man` on a terminal.
    case manual(String)
    case ask(ControlCommand)
    /// Request lines from standard input, answers to standard output, over one connection.
    case pipe(socketPath: String?, timeoutSeconds: Double)
    /// The client's version and the daemon's, asked on its socket or at its HTTP front door.
    case version(socketPath: String?, url: HTTPQuestion.Address?, timeoutSeconds: Double)

    package static func parse(_ arguments: [String]) throws(UsageError) -> ControlInvocation {
        let table = ControlCommand.table
        let beforeSeparator = arguments.prefix { $0 != "--" }
        if beforeSeparator.contains("--help") || beforeSeparator.contains("-h") || beforeSeparator.first == "help" {
            let named = beforeSeparator.first { table.command($0) != nil }
            return .text(named.flatMap(table.command).map(table.help(for:)) ?? table.help)
        }
        if beforeSeparator.contains("--version") { return .text("areasctl \(AreasVersion.current)\n") }
        if beforeSeparator.contains("--manual") { return .manual(table.manualPage(version: AreasVersion.current, date: AreasVersion.date)) }
        if beforeSeparator.first == "completion" {
            let shells = CommandLineTable.Shell.allCases.map(\.rawValue).joined(separator: ", ")
            guard arguments.count == 2 else { throw .wrongArguments("completion takes one shell: \(shells)") }
            guard let shell = CommandLineTable.Shell(rawValue: arguments[1]) else { throw .invalidValue("SHELL (\(shells))", arguments[1]) }
            return .text(table.completionScript(for: shell))
        }
        if let verb = beforeSeparator.first(where: { !$0.hasPrefix("-") && !isOptionValue($0, in: arguments) }), verb == "pipe" || verb == "version" {
            var list = ArgumentList(arguments)
            let socketPath = try list.value("--socket", "-s")
            let url = try list.value("--url").map { text throws(UsageError) in try HTTPQuestion.address(text) }
            if url != nil && socketPath != nil { throw .wrongArguments("--url and --socket name two daemons: give one") }
            if verb == "pipe" && url != nil {
                throw .wrongArguments("pipe asks on the socket (--socket PATH): the HTTP front door (--url) answers one question a request")
            }
            let timeout = try list.value("--timeout", as: { Double($0) }) ?? (verb == "pipe" ? 600 : 5)
            guard timeout > 0 && timeout <= 86_400 else { throw .invalidValue("--timeout", String(timeout)) }
            let rest = try list.positionals()
            guard rest == [verb] else { throw .wrongArguments("\(verb) takes no arguments or options but --socket, --url and --timeout") }
            return verb == "pipe" ? .pipe(socketPath: socketPath, timeoutSeconds: timeout) : .version(socketPath: socketPath, url: url, timeoutSeconds: timeout)
        }
        return .ask(try ControlCommand.parse(arguments))
    }

    /// Whether `word` is the value of a global option (`--socket PATH`), not the command.
    private static func isOptionValue(_ word: String, in arguments: [String]) -> Bool {
        guard let index = arguments.firstIndex(of: word), index > 0 else { return false }
        return ["--socket", "-s", "--url", "--timeout"].contains(arguments[index - 1])
    }
}
