/// Shell completion scripts written from the table: the commands, each command's own options,
/// the fixed values of an option or an operand, and file names where a value is a PATH.
extension CommandLineTable {
    package enum Shell: String, Sendable, CaseIterable { case bash, zsh, fish }

    package func completionScript(for shell: Shell) -> String {
        switch shell {
        case .bash: return bashCompletion
        case .zsh: return zshCompletion
        case .fish: return fishCompletion
        }
    }

    private var functionName: String { "_" + program.replacingDashes }

    private var valueOptions: [Option] { (globalOptions + commandOptions).filter { $0.value != nil } }

    var bashCompletion: String {
        var script = """
            # bash completion for \(program); load with: source <(\(program) completion bash)
            \(functionName)() {
                local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
                case $prev in

            """
        for option in valueOptions {
            let patterns = option.names.joined(separator: "|")
            if option.takesPath {
                script += "        \(patterns)) COMPREPLY=($(compgen -f -- \"$cur\")); return ;;\n"
            } else if !option.choices.isEmpty {
                script += "        \(patterns)) COMPREPLY=($(compgen -W \"\(option.choices.joined(separator: " "))\" -- \"$cur\")); return ;;\n"
            } else {
                script += "        \(patterns)) COMPREPLY=(); return ;;\n"
            }
        }
        let valueNames = valueOptions.flatMap(\.names).joined(separator: "|")
        script += """
                esac
                local i word command=
                for ((i = 1; i < COMP_CWORD; i++)); do
                    word=${COMP_WORDS[i]}
                    case $word in
                        \(valueNames)) ((i++)) ;;
                        -*) ;;
                        *) command=$word; break ;;
                    esac
                done
                local globals="\(globalOptions.flatMap(\.names).joined(separator: " "))"
                if [[ -z $command ]]; then
                    if [[ $cur == -* ]]; then
                        COMPREPLY=($(compgen -W "$globals" -- "$cur"))
                    else
                        COMPREPLY=($(compgen -W "\(commands.map(\.name).joined(separator: " "))" -- "$cur"))
                    fi
                    return
                fi
                local options= operands=
                case $command in

            """
        for command in commands {
            let names = options(of: command).flatMap(\.names)
            script += "        \(command.name)) options=\"\(names.joined(separator: " "))\"; operands=\"\(command.operandChoices.joined(separator: " "))\" ;;\n"
        }
        script += """
                esac
                if [[ $cur == -* ]]; then
                    COMPREPLY=($(compgen -W "$options $globals" -- "$cur"))
                elif [[ -n $operands && $prev == "$command" ]]; then
                    COMPREPLY=($(compgen -W "$operands" -- "$cur"))
                fi
            }
            complete -F \(functionName) \(program)

            """
        return script
    }

    var zshCompletion: String {
        func spec(_ option: Option) -> [String] {
            let summary = option.summary.zshQuoted
            let value: String
            if option.takesPath { value = ":\(option.value!.lowercased()):_files" }
            else if let placeholder = option.value {
                value = ":\(placeholder.lowercased()):" + (option.choices.isEmpty ? " " : "(\(option.choices.joined(separator: " ")))")
            } else { value = "" }
            let exclusive = option.names.count > 1 ? "(\(option.names.joined(separator: " ")))" : ""
            return option.names.map { "'\(exclusive)\($0)[\(summary)]\(value)'" }
        }
        let globals = globalOptions.flatMap(spec).joined(separator: " ")
        var script = """
            #compdef \(program)
            # zsh completion for \(program); put it on $fpath as \(functionName) (\(program) completion zsh > \(functionName))
            \(functionName)() {
                local context state state_descr line
                typeset -A opt_args
                local -a globals commands
                globals=(\(globals))
                commands=(\(commands.map { "'\($0.name):\($0.summary.zshQuoted)'" }.joined(separator: " ")))

            """
        if commands.isEmpty {
            script += "    _arguments -s $globals\n}\n"
        } else {
            script += """
                    _arguments -C $globals '1: :->command' '*:: :->arguments'
                    case $state in
                        command) _describe -t commands '\(program) command' commands ;;
                        arguments)
                            case $words[1] in

                """
            for command in commands {
                let specs = options(of: command).flatMap(spec).joined(separator: " ")
                let operands = command.operandChoices.isEmpty ? "" : " '1:\(command.operands.lowercased()):(\(command.operandChoices.joined(separator: " ")))'"
                script += "                \(command.name)) _arguments -s $globals \(specs)\(operands) ;;\n"
            }
            script += """
                            esac ;;
                    esac
                }

                """
        }
        script += "\(functionName) \"$@\"\n"
        return script
    }

    var fishCompletion: String {
        let commandNames = commands.map(\.name).joined(separator: " ")
        var lines = ["# fish completion for \(program); load with: \(program) completion fish | source", "complete -c \(program) -f"]
        func line(_ option: Option, condition: String) -> String {
            var parts = ["complete -c \(program)"]
            if !condition.isEmpty { parts.append("-n '\(condition)'") }
            for name in option.names {
                parts.append(name.hasPrefix("--") ? "-l \(name.dropFirst(2))" : name.count == 2 ? "-s \(name.dropFirst())" : "-o \(name.dropFirst())")
            }
            if option.takesPath { parts.append("-r -F") }
            else if option.value != nil { parts.append("-x") }
            if !option.choices.isEmpty { parts.append("-a '\(option.choices.joined(separator: " "))'") }
            parts.append("-d '\(option.summary.fishQuoted)'")
            return parts.joined(separator: " ")
        }
        for option in globalOptions { lines.append(line(option, condition: "")) }
        for command in commands {
            lines.append("complete -c \(program) -n 'not __fish_seen_subcommand_from \(commandNames)' -a \(command.name) -d '\(command.summary.fishQuoted)'")
            for option in options(of: command) {
                lines.append(line(option, condition: "__fish_seen_subcommand_from \(command.name)"))
            }
            if !command.operandChoices.isEmpty {
                lines.append("complete -c \(program) -n '__fish_seen_subcommand_from \(command.name)' -a '\(command.operandChoices.joined(separator: " "))'")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

extension String {
    var replacingDashes: String { String(map { $0 == "-" ? "_" : $0 }) }

    /// Inside single quotes and an `_arguments` description: no quote, and brackets and colons
    /// escaped.
    var zshQuoted: String {
        var out = ""
        for character in self {
            switch character {
            case "'": out += "'\\''"
            case "[", "]", ":": out += "\\" + String(character)
            default: out.append(character)
            }
        }
        return out
    }

    var fishQuoted: String {
        var out = ""
        for character in self {
            if character == "'" || character == "\\" { out += "\\" }
            out.append(character)
        }
        return out
    }
}
