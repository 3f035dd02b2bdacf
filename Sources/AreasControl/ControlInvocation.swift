import AreasCore
import AreasSystem

/// What one areasctl command line asks for: text areasctl prints itself (help, the version,
/// the manual, a completion script), or a question for the daemon.
package enum ControlInvocation: Sendable {
    case text(String)
    /// The manual page's roff source: shown through `man` on a terminal.
    case manual(String)
    case ask(ControlCommand)

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
        return .ask(try ControlCommand.parse(arguments))
    }
}
