import AreasCore
import AreasProtocol
import Foundation

/// One object of a config file read by its section's declared keys: each value's type, range
/// and default come from its `ConfigKey`, and each error names the file and the key's full
/// name (`sources[2].pageSize`). A `null` is as if the key were absent.
struct ConfigObject {
    let members: [(String, JSONValue)]
    let section: ConfigSection
    /// Written before each key's name in errors: "", "http.", "sources[2].".
    let keyPrefix: String
    let path: String
    let resolvePath: (String) -> String

    /// `value` as an object of `section`, or the error saying what it is instead.
    init(_ value: JSONValue, section: ConfigSection, key: String?, path: String, resolvePath: @escaping (String) -> String) throws(ConfigError) {
        guard case .object(let members) = value else {
            throw ConfigError(path: path, key: key, problem: "expected an object")
        }
        self.members = members
        self.section = section
        self.keyPrefix = key.map { $0 + "." } ?? ""
        self.path = path
        self.resolvePath = resolvePath
    }

    func problem(_ key: String, _ text: String) -> ConfigError {
        ConfigError(path: path, key: key.isEmpty ? String(keyPrefix.dropLast()) : keyPrefix + key, problem: text)
    }

    /// Every member no key of the section names, with the nearest name that is one: a
    /// misspelt key would otherwise be ignored in silence and its default used.
    var unknownKeys: [ConfigError] {
        let known = section.names
        return members.filter { !known.contains($0.0) }.map { member in
            let suggestion = Suggestion.closest(to: member.0, among: known.sorted()).map { " (did you mean \($0)?)" } ?? ""
            return problem(member.0, "unknown key" + suggestion)
        }
    }

    /// The key's value as given (the last when repeated), nil when absent or null.
    func given(_ key: ConfigKey) -> JSONValue? {
        assert(section.names.contains(key.name), "\(key.name) is not declared in \(section.name)")
        guard let value = members.last(where: { $0.0 == key.name })?.1, value != .null else { return nil }
        return value
    }

    func string(_ key: ConfigKey) throws(ConfigError) -> String? {
        guard let value = given(key) else {
            if case .text(let fallback) = key.fallback { return fallback }
            return nil
        }
        guard case .string(let text) = value else { throw problem(key.name, "expected a string") }
        return text
    }

    /// A path as given, resolved against the config's folder.
    func path(_ key: ConfigKey) throws(ConfigError) -> String? {
        if given(key) == nil, case .text(let fallback) = key.fallback { return fallback }
        return try string(key).map(resolvePath)
    }

    func flag(_ key: ConfigKey) throws(ConfigError) -> Bool? {
        guard let value = given(key) else {
            if case .flag(let fallback) = key.fallback { return fallback }
            return nil
        }
        guard case .bool(let flag) = value else { throw problem(key.name, "expected true or false") }
        return flag
    }

    /// A number in the key's range, or its declared default when absent.
    func number(_ key: ConfigKey) throws(ConfigError) -> Double {
        try optionalNumber(key) ?? key.defaultNumber
    }

    /// A number in the key's range; nil when absent.
    func optionalNumber(_ key: ConfigKey) throws(ConfigError) -> Double? {
        guard let value = given(key) else { return nil }
        guard case .number(let number) = value else { throw problem(key.name, "expected a number") }
        guard case .number(let range) = key.takes else { return number }
        guard number.isFinite, range.contains(number) else {
            throw problem(key.name, "must be a number from \(ConfigKey.text(range.lowerBound)) to \(ConfigKey.text(range.upperBound)), got \(number)")
        }
        return number
    }

    /// A whole number in the key's range, or its declared default when absent.
    func count(_ key: ConfigKey) throws(ConfigError) -> Int {
        try optionalCount(key) ?? key.defaultCount
    }

    /// A whole number in the key's range (or `range`, when it depends on another key); nil
    /// when absent.
    func optionalCount(_ key: ConfigKey, in range: ClosedRange<Int>? = nil) throws(ConfigError) -> Int? {
        guard let value = given(key) else { return nil }
        guard let whole = Self.wholeNumber(value) else { throw problem(key.name, "expected a whole number") }
        guard case .count(let declared) = key.takes else { return whole }
        let range = range ?? declared
        guard range.contains(whole) else { throw problem(key.name, "must be from \(range.lowerBound) to \(range.upperBound), got \(whole)") }
        return whole
    }

    static func wholeNumber(_ value: JSONValue) -> Int? {
        guard case .number(let number) = value, number.isFinite, number == number.rounded() else { return nil }
        // Past Int's range it is still a whole number, and out of every key's range.
        return Int(exactly: number) ?? (number > 0 ? Int.max : Int.min)
    }

    /// One of the key's words, or the error listing them.
    func choice(_ key: ConfigKey) throws(ConfigError) -> String? {
        guard let text = try string(key) else { return nil }
        guard case .choice(let words) = key.takes, !words.contains(text) else { return text }
        throw problem(key.name, "'\(text)' is not one of \(words.joined(separator: ", "))")
    }

    func url(_ key: ConfigKey) throws(ConfigError) -> String? {
        guard let text = try string(key) else { return nil }
        guard let parsed = URL(string: text), let scheme = parsed.scheme, ["http", "https"].contains(scheme), parsed.host != nil else {
            throw problem(key.name, "'\(text)' is not an http(s) URL")
        }
        return text
    }

    /// An environment variable's name (the value is read only when it is needed).
    func environmentName(_ key: ConfigKey) throws(ConfigError) -> String? {
        guard let text = try string(key) else { return nil }
        guard !text.isEmpty, text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }) else {
            throw problem(key.name, "'\(text)' is not an environment variable name")
        }
        return text
    }

    /// A socket file's permission bits, written as octal text ("0660").
    func mode(_ key: ConfigKey) throws(ConfigError) -> UInt32? {
        guard let text = try string(key) else { return nil }
        guard let mode = UInt32(text, radix: 8), mode <= 0o777 else {
            throw problem(key.name, "'\(text)' is not an octal mode such as \"0660\"")
        }
        return mode
    }

    /// The key's object, read by its section; nil when absent.
    func object(_ key: ConfigKey) throws(ConfigError) -> ConfigObject? {
        guard let value = given(key) else { return nil }
        guard case .object(let inner) = key.takes else { preconditionFailure("\(key.name) is declared as no object") }
        return try ConfigObject(value, section: inner, key: keyPrefix + key.name, path: path, resolvePath: resolvePath)
    }

    /// The key's list of objects, each read by its section; nil when absent.
    func objects(_ key: ConfigKey) throws(ConfigError) -> [ConfigObject]? {
        guard let value = given(key) else { return nil }
        guard case .objects(let inner) = key.takes else { preconditionFailure("\(key.name) is declared as no list of objects") }
        guard case .array(let elements) = value else { throw problem(key.name, "expected a list") }
        var objects: [ConfigObject] = []
        for (i, element) in elements.enumerated() {
            objects.append(try ConfigObject(element, section: inner, key: "\(keyPrefix)\(key.name)[\(i)]", path: path, resolvePath: resolvePath))
        }
        return objects
    }

    /// The key's list of whole numbers in its range; nil when absent.
    func counts(_ key: ConfigKey) throws(ConfigError) -> [Int]? {
        guard let value = given(key) else { return nil }
        guard case .array(let elements) = value else { throw problem(key.name, "expected a list") }
        guard case .counts(let range) = key.takes else { preconditionFailure("\(key.name) is declared as no list of numbers") }
        var numbers: [Int] = []
        for (i, element) in elements.enumerated() {
            guard let whole = Self.wholeNumber(element), range.contains(whole) else {
                throw problem("\(key.name)[\(i)]", "expected a whole number from \(range.lowerBound) to \(range.upperBound)")
            }
            numbers.append(whole)
        }
        return numbers
    }

    /// The key's object of text values, in the file's order; nil when absent.
    func pairs(_ key: ConfigKey) throws(ConfigError) -> [(String, String)]? {
        guard let value = given(key) else { return nil }
        guard case .object(let members) = value else { throw problem(key.name, "expected an object") }
        var pairs: [(String, String)] = []
        for (name, member) in members {
            guard case .string(let text) = member else { throw problem("\(key.name).\(name)", "expected a string") }
            pairs.append((name, text))
        }
        return pairs
    }

    /// Every unknown key in this object and the objects inside it, in the file's order.
    var unknownKeysWithin: [ConfigError] {
        var found = unknownKeys
        for key in section.keys {
            switch key.takes {
            case .object(let inner), .objectOrAuto(let inner):
                if let value = given(key), let object = try? ConfigObject(value, section: inner, key: keyPrefix + key.name, path: path, resolvePath: resolvePath) {
                    found += object.unknownKeysWithin
                }
            case .objects:
                found += ((try? objects(key)) ?? nil)?.flatMap(\.unknownKeysWithin) ?? []
            default: continue
            }
        }
        return found
    }
}
