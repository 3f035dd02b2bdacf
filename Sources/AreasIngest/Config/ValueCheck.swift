import Foundation

/// Range checks for a config file's numbers, each naming the key it refuses.
struct ValueCheck {
    let path: String

    /// A number from `minimum` to `maximum`, or `fallback` when the key is absent. Every
    /// duration has both bounds: a value the validator let through would otherwise overflow a
    /// time-out's arithmetic (1e19 s) or silently disable it (1e-7 s).
    func number(_ value: Double?, _ key: String, default fallback: Double, minimum: Double, maximum: Double) throws(ConfigError) -> Double {
        guard let value else { return fallback }
        guard value.isFinite, value >= minimum, value <= maximum else {
            throw ConfigError(path: path, key: key, problem: "must be a number from \(Self.text(minimum)) to \(Self.text(maximum)), got \(value)")
        }
        return value
    }

    /// A socket file's permission bits, written as octal text ("0660"), or nil when absent.
    func fileMode(_ text: String?, _ key: String) throws(ConfigError) -> UInt32? {
        guard let text else { return nil }
        guard let mode = UInt32(text, radix: 8), mode <= 0o777 else {
            throw ConfigError(path: path, key: key, problem: "'\(text)' is not an octal mode such as \"0660\"")
        }
        return mode
    }

    /// A whole number from `minimum` to `maximum`, or `fallback` when the key is absent.
    func count(_ value: Int?, _ key: String, default fallback: Int, minimum: Int = 1, maximum: Int) throws(ConfigError) -> Int {
        guard let value else { return fallback }
        guard value >= minimum, value <= maximum else {
            throw ConfigError(path: path, key: key, problem: "must be from \(minimum) to \(maximum), got \(value)")
        }
        return value
    }

    private static func text(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    /// An http or https URL with a host.
    func httpURL(_ text: String, _ key: String) throws(ConfigError) -> String {
        guard let parsed = URL(string: text), let scheme = parsed.scheme, ["http", "https"].contains(scheme), parsed.host != nil else {
            throw ConfigError(path: path, key: key, problem: "'\(text)' is not an http(s) URL")
        }
        return text
    }

    /// An environment variable's name (the value is read only when it is needed).
    func environmentName(_ value: String?, _ key: String) throws(ConfigError) -> String? {
        guard let value else { return nil }
        guard !value.isEmpty, value.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }) else {
            throw ConfigError(path: path, key: key, problem: "'\(value)' is not an environment variable name")
        }
        return value
    }
}
