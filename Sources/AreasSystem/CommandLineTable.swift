/// Everything a program's command line accepts, written once: `--help`, each command's help,
/// the shell completions and the manual page are all rendered from it, and the parser checks
/// which options a command reads against it, so none of them can drift from the others.
package struct CommandLineTable: Sendable {
    /// An option: its names (the first is the one shown), the placeholder of its value (nil for
    /// a flag), the values it takes when they are a fixed list, and one line on what it does.
    package struct Option: Sendable {
        package let names: [String]
        package let value: String?
        package let choices: [String]
        package let summary: String
        /// What the option does for one command, where that differs by command.
        package let summaryByCommand: [String: String]

        package init(_ names: [String], value: String? = nil, choices: [String] = [], _ summary: String, byCommand: [String: String] = [:]) {
            self.names = names
            self.value = value
            self.choices = choices
            self.summary = summary
            self.summaryByCommand = byCommand
        }

        /// What it does for `command`, in that command's words.
        package func summary(for command: String) -> String { summaryByCommand[command] ?? summary }

        package var name: String { names[0] }
        /// A value that names a file, so shells complete file names for it.
        package var takesPath: Bool { value == "PATH" }
        /// "--kind smoking|nonsmoking|all", "-k N", "--force".
        package var usage: String {
            guard let value else { return names.joined(separator: ", ") }
            return names.joined(separator: ", ") + " " + (choices.isEmpty ? value : choices.joined(separator: "|"))
        }
    }

    /// A command: its name, its operands as shown ("LAT LON"), the fixed words an operand may
    /// be (for completion), one line on what it does, and the names of the options it reads.
    package struct Command: Sendable {
        package let name: String
        package let operands: String
        package let operandChoices: [String]
        package let summary: String
        package let options: [String]

        package init(_ name: String, _ operands: String = "", operandChoices: [String] = [], _ summary: String, options: [String] = []) {
            self.name = name
            self.operands = operands
            self.operandChoices = operandChoices
            self.summary = summary
            self.options = options
        }

        /// A command without operands.
        package init(_ name: String, _ summary: String, options: [String] = []) {
            self.init(name, "", summary, options: options)
        }
    }

    package let program: String
    /// The manual section: 1 for commands people run, 8 for daemons.
    package let section: Int
    /// What the program is, in a few words ("ask areasd where people may smoke").
    package let purpose: String
    /// What follows the program's name in the usage line.
    package let synopsis: String
    /// The manual's description, a paragraph per element.
    package let description: [String]
    /// Options that every command takes (or, for a program without commands, all of them).
    package let globalOptions: [Option]
    package let commands: [Command]
    /// Options of the commands, each read by the commands that list it.
    package let commandOptions: [Option]
    package let exitStatus: [(code: Int, meaning: String)]
    package let environment: [(name: String, meaning: String)]
    package let examples: [(command: String, meaning: String)]
    package let seeAlso: [String]

    package init(program: String, section: Int, purpose: String, synopsis: String, description: [String],
                globalOptions: [Option], commands: [Command] = [], commandOptions: [Option] = [],
                exitStatus: [(code: Int, meaning: String)], environment: [(name: String, meaning: String)] = [],
                examples: [(command: String, meaning: String)] = [], seeAlso: [String] = []) {
        self.program = program
        self.section = section
        self.purpose = purpose
        self.synopsis = synopsis
        self.description = description
        self.globalOptions = globalOptions
        self.commands = commands
        self.commandOptions = commandOptions
        self.exitStatus = exitStatus
        self.environment = environment
        self.examples = examples
        self.seeAlso = seeAlso
    }

    package func command(_ name: String) -> Command? { commands.first { $0.name == name } }

    /// The option called `name` (by any of its names), global or a command's.
    package func option(_ name: String) -> Option? {
        (globalOptions + commandOptions).first { $0.names.contains(name) }
    }

    /// The options `command` reads, in the table's order.
    package func options(of command: Command) -> [Option] {
        commandOptions.filter { command.options.contains($0.name) }
    }

    /// The `--help` text: usage, the commands, the options, the exit codes.
    package var help: String {
        var lines = ["usage: \(program) \(synopsis)", "", purpose]
        if !commands.isEmpty {
            lines += ["", "commands:"]
            lines += Self.columns(commands.map { ("\($0.name) \($0.operands)".trimmingSpaces, $0.summary) })
        }
        if !commandOptions.isEmpty {
            lines += ["", "command options (\(program) COMMAND --help lists a command's own):"]
            lines += Self.columns(commandOptions.map { ($0.usage, $0.summary) })
        }
        lines += ["", commands.isEmpty ? "options:" : "global options:"]
        lines += Self.columns(globalOptions.map { ($0.usage, $0.summary) })
        lines += ["", "exit status:"]
        lines += Self.columns(exitStatus.map { (String($0.code), $0.meaning) })
        return lines.joined(separator: "\n") + "\n"
    }

    /// `PROGRAM COMMAND --help`.
    package func help(for command: Command) -> String {
        let options = self.options(of: command)
        var lines = ["usage: \(program) \(command.name)\(command.operands.isEmpty ? "" : " " + command.operands)\(options.isEmpty ? "" : " [options]")", "", command.summary]
        if !options.isEmpty {
            lines += ["", "options:"]
            lines += Self.columns(options.map { ($0.usage, $0.summary(for: command.name)) })
        }
        lines += ["", "global options: " + globalOptions.map(\.name).joined(separator: " ") + " (see \(program) --help)"]
        return lines.joined(separator: "\n") + "\n"
    }

    /// Two columns, the second aligned (and starting on its own line after a long first).
    static func columns(_ rows: [(String, String)]) -> [String] {
        let width = min(30, (rows.map { $0.0.count }.max() ?? 0) + 2)
        return rows.map { left, right in
            let indented = "  " + left
            if left.count + 2 > width { return indented + "\n" + String(repeating: " ", count: width + 2) + right }
            return indented + String(repeating: " ", count: width - left.count) + right
        }
    }
}

extension String {
    var trimmingSpaces: String {
        var text = Substring(self)
        while text.last == " " { text = text.dropLast() }
        return String(text)
    }
}
