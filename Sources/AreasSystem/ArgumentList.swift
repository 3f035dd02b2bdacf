/// A command line being read: options are taken out by name, what is left is positional.
///
/// Small on purpose: the three executables need `--name value`, `--name=value`, `-kVALUE`, flags and
/// positionals, with a clear message for anything else.
package struct ArgumentList {
    package private(set) var remaining: [String]

    package init(_ arguments: [String]) {
        remaining = arguments
    }

    /// Removes and returns the first argument (the subcommand), if any.
    package mutating func next() -> String? {
        remaining.isEmpty ? nil : remaining.removeFirst()
    }

    /// Removes and returns the value of `--name value` or `--name=value` (also any alias); an
    /// option given twice is an error, not a silent choice of one.
    package mutating func value(_ names: String...) throws(UsageError) -> String? {
        try value(names)
    }

    package mutating func value(_ names: [String]) throws(UsageError) -> String? {
        guard let found = try takeValue(names) else { return nil }
        if try takeValue(names) != nil { throw .givenTwice(names[0]) }
        return found
    }

    private mutating func takeValue(_ names: [String]) throws(UsageError) -> String? {
        var index = 0
        while index < remaining.count {
            let argument = remaining[index]
            if argument == "--" { return nil }
            for name in names {
                if argument == name {
                    guard index + 1 < remaining.count else { throw .missingValue(name) }
                    let value = remaining[index + 1]
                    remaining.removeSubrange(index...(index + 1))
                    return value
                }
                if argument.hasPrefix(name + "=") {
                    remaining.remove(at: index)
                    return String(argument.dropFirst(name.count + 1))
                }
                // A one-letter option takes its value attached too, as getopt does: `-k2`.
                if name.count == 2, !name.hasPrefix("--"), argument.count > 2, argument.hasPrefix(name), !argument.hasPrefix("--") {
                    remaining.remove(at: index)
                    return String(argument.dropFirst(2))
                }
            }
            index += 1
        }
        return nil
    }

    /// Removes `--name` and reports whether it was there (given twice, it is there once).
    package mutating func flag(_ names: String...) -> Bool {
        flag(names)
    }

    package mutating func flag(_ names: [String]) -> Bool {
        let before = remaining.count
        remaining.removeAll { names.contains($0) }
        return remaining.count < before
    }

    /// Parses an option's value with `parse`, naming the option when it does not parse.
    package mutating func value<T>(_ name: String, as parse: (String) -> T?) throws(UsageError) -> T? {
        guard let text = try value(name) else { return nil }
        guard let parsed = parse(text) else { throw .invalidValue(name, text) }
        return parsed
    }

    /// The positional arguments; fails on any option nobody asked for.
    package mutating func positionals() throws(UsageError) -> [String] {
        var result: [String] = []
        var afterSeparator = false
        for argument in remaining {
            if afterSeparator { result.append(argument); continue }
            if argument == "--" { afterSeparator = true; continue }
            // Negative numbers are positionals (a longitude west of Greenwich), not options.
            if argument.hasPrefix("-") && argument.count > 1 && Double(argument) == nil {
                throw .unknownOption(argument)
            }
            result.append(argument)
        }
        remaining = []
        return result
    }
}

/// A command line that cannot be understood.
package enum UsageError: Error, Equatable, CustomStringConvertible {
    case missingValue(String)
    case invalidValue(String, String)
    case unknownOption(String)
    case unknownCommand(String)
    case wrongArguments(String)
    case givenTwice(String)

    package var description: String {
        switch self {
        case .missingValue(let name): return "\(name) needs a value"
        case .invalidValue(let name, let value): return "invalid value for \(name): '\(value)'"
        case .unknownOption(let name): return "unknown option \(name)"
        case .unknownCommand(let name): return "unknown command '\(name)'"
        case .wrongArguments(let message): return message
        case .givenTwice(let name): return "\(name) is given twice"
        }
    }
}
