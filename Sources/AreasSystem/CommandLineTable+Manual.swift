/// The manual page, in the `man(7)` macros, written from the table (`PROGRAM --manual`).
extension CommandLineTable {
    package func manualPage(version: String, date: String) -> String {
        var page = [
            ".TH \(program.uppercased().roffEscaped) \(section) \"\(date)\" \"areas \(version)\" \"\(section == 8 ? "System Administration" : "User Commands")\"",
            ".SH NAME",
            "\(program.roffEscaped) \\- \(purpose.roffEscaped)",
            ".SH SYNOPSIS",
            ".B \(program.roffEscaped)",
            synopsis.roffEscaped,
            ".SH DESCRIPTION",
        ]
        for (index, paragraph) in description.enumerated() {
            if index > 0 { page.append(".PP") }
            page.append(paragraph.roffText)
        }
        if !commands.isEmpty {
            page.append(".SH COMMANDS")
            for command in commands {
                page.append(".TP")
                page.append("\\fB\(command.name.roffEscaped)\\fR" + (command.operands.isEmpty ? "" : " \\fI\(command.operands.roffEscaped)\\fR"))
                let options = self.options(of: command).map { "\\fB\($0.name.roffEscaped)\\fR" }
                page.append(command.summary.roffText + (options.isEmpty ? "" : "\n.br\nOptions: " + options.joined(separator: ", ") + "."))
            }
        }
        func describe(_ options: [Option], heading: String) {
            guard !options.isEmpty else { return }
            page.append(".SH \(heading)")
            for option in options {
                page.append(".TP")
                let names = option.names.map { "\\fB\($0.roffEscaped)\\fR" }.joined(separator: ", ")
                let value = option.value.map { value in
                    " \\fI" + (option.choices.isEmpty ? value : option.choices.joined(separator: "|")).roffEscaped + "\\fR"
                } ?? ""
                page.append(names + value)
                page.append(option.summary.roffText)
            }
        }
        describe(globalOptions, heading: commands.isEmpty ? "OPTIONS" : "GLOBAL OPTIONS")
        describe(commandOptions, heading: "COMMAND OPTIONS")
        page.append(".SH EXIT STATUS")
        for status in exitStatus {
            page += [".TP", "\\fB\(status.code)\\fR", status.meaning.roffText]
        }
        if !environment.isEmpty {
            page.append(".SH ENVIRONMENT")
            for variable in environment {
                page += [".TP", "\\fB\(variable.name.roffEscaped)\\fR", variable.meaning.roffText]
            }
        }
        if !examples.isEmpty {
            page.append(".SH EXAMPLES")
            for example in examples {
                page += [".TP", "\\fB\(example.command.roffEscaped)\\fR", example.meaning.roffText]
            }
        }
        if !seeAlso.isEmpty {
            page += [".SH SEE ALSO", seeAlso.map { reference in
                guard let open = reference.firstIndex(of: "(") else { return "\\fB\(reference.roffEscaped)\\fR" }
                return "\\fB\(reference[..<open].roffEscaped)\\fR\(reference[open...])"
            }.joined(separator: ", ")]
        }
        return page.joined(separator: "\n") + "\n"
    }
}

extension StringProtocol {
    /// Text safe inside a roff line: backslashes and dashes escaped (a bare `-` may be printed
    /// as a hyphen that cannot be copied into a shell), and anything past ASCII written as
    /// `\[uXXXX]`, which every troff reads whatever its input encoding.
    var roffEscaped: String {
        var out = ""
        for scalar in unicodeScalars {
            switch scalar {
            case "\\": out += "\\e"
            case "-": out += "\\-"
            case _ where scalar.isASCII: out.unicodeScalars.append(scalar)
            default:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out += "\\[u" + String(repeating: "0", count: Swift.max(0, 4 - hex.count)) + hex + "]"
            }
        }
        return out
    }

    /// A paragraph of running text: escaped, and no line starting with a control character
    /// (`.` or `'`), which roff would read as a request.
    var roffText: String {
        let escaped = roffEscaped
        return escaped.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.hasPrefix(".") || line.hasPrefix("'") ? "\\&" + line : String(line)
        }.joined(separator: "\n")
    }
}
