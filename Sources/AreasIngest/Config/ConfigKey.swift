/// One key a config file may hold, declared once: its name, what it takes (with the range a
/// number must lie in), its default and what it means. Reading a file (`ConfigObject`), the
/// nearest known name offered for an unknown key, `--check-config` and the key tables (the
/// README's and `ConfigKeys.md`) all come from these declarations, so none can drift from another.
package struct ConfigKey: Sendable {
    package enum Takes: Sendable {
        case text
        /// A file or folder; relative to the config's folder, `~/` the home folder.
        case path
        case choice([String])
        case number(ClosedRange<Double>)
        case count(ClosedRange<Int>)
        case flag
        /// Octal permission bits as text ("0660").
        case mode
        case url
        /// The name of an environment variable (its value is read when needed).
        case environmentName
        case object(ConfigSection)
        /// A list of objects of a section.
        case objects(ConfigSection)
        /// A list of whole numbers.
        case counts(ClosedRange<Int>)
        /// An object of text values, any names.
        case pairs
        /// A column template's text or the word "auto": for `fields`, an object or "auto".
        case objectOrAuto(ConfigSection)
    }

    /// What an absent key means.
    package enum Fallback: Sendable {
        case number(Double)
        case count(Int)
        case flag(Bool)
        case text(String)
        /// No value: the words say what that means ("none", "off", "required").
        case absent(String)
    }

    package let name: String
    package let takes: Takes
    package let fallback: Fallback
    package let meaning: String

    package init(_ name: String, _ takes: Takes, _ fallback: Fallback, _ meaning: String) {
        self.name = name
        self.takes = takes
        self.fallback = fallback
        self.meaning = meaning
    }

    /// A number from `range`, `fallback` when absent.
    package static func number(_ name: String, _ fallback: Double, in range: ClosedRange<Double>, _ meaning: String) -> ConfigKey {
        ConfigKey(name, .number(range), .number(fallback), meaning)
    }

    /// A whole number from `range`, `fallback` when absent.
    package static func count(_ name: String, _ fallback: Int, in range: ClosedRange<Int>, _ meaning: String) -> ConfigKey {
        ConfigKey(name, .count(range), .count(fallback), meaning)
    }

    /// The declared default of a number key.
    package var defaultNumber: Double {
        switch fallback {
        case .number(let value): return value
        case .count(let value): return Double(value)
        default: preconditionFailure("\(name) is declared without a number for its default")
        }
    }

    /// The declared default of a whole-number key.
    package var defaultCount: Int {
        guard case .count(let value) = fallback else { preconditionFailure("\(name) is declared without a whole number for its default") }
        return value
    }

    /// The default as the tables write it.
    package var defaultText: String {
        switch fallback {
        case .number(let value): return ConfigKey.text(value)
        case .count(let value): return String(value)
        case .flag(let value): return "`\(value)`"
        case .text(let value): return "`\(value)`"
        case .absent(let words): return words
        }
    }

    /// What the key takes, as the tables write it.
    package var takesText: String {
        switch takes {
        case .text: return "text"
        case .path: return "a path"
        case .choice(let words): return words.map { "`\($0)`" }.joined(separator: ", ")
        case .number(let range): return "a number, \(ConfigKey.text(range.lowerBound)) to \(ConfigKey.text(range.upperBound))"
        case .count(let range): return "a whole number, \(range.lowerBound) to \(range.upperBound)"
        case .flag: return "`true` or `false`"
        case .mode: return "octal text"
        case .url: return "an http(s) URL"
        case .environmentName: return "a variable's name"
        case .object: return "an object"
        case .objects: return "a list of objects"
        case .counts: return "a list of whole numbers"
        case .pairs: return "an object of text"
        case .objectOrAuto: return "an object or `\"auto\"`"
        }
    }

    static func text(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}

/// The keys one object of a config file may hold: the top level, `http`, a source, ...
package struct ConfigSection: Sendable {
    /// How the tables and errors name the object: "", "http", "sources[]".
    package let name: String
    package let keys: [ConfigKey]

    package init(_ name: String, _ keys: [ConfigKey]) {
        self.name = name
        self.keys = keys
    }

    package var names: [String] { keys.map(\.name) }

    /// This section's rows of a key table: key, what it takes, default, meaning.
    package var tableRows: [String] {
        keys.map { "| `\($0.name)` | \($0.takesText) | \($0.defaultText) | \($0.meaning) |" }
    }

    /// The sections inside this one, depth first (this one first).
    package var withInner: [ConfigSection] {
        [self] + keys.flatMap { key -> [ConfigSection] in
            switch key.takes {
            case .object(let inner), .objects(let inner), .objectOrAuto(let inner): return inner.withInner
            default: return []
            }
        }
    }
}
