/// Range checks for a config file's numbers, each naming the key it refuses.
struct ValueCheck {
    let path: String

    /// A finite number above 0, or `fallback` when the key is absent.
    func positive(_ value: Double?, _ key: String, default fallback: Double) throws(ConfigError) -> Double {
        guard let value else { return fallback }
        guard value.isFinite, value > 0 else { throw ConfigError(path: path, key: key, problem: "must be a number above 0, got \(value)") }
        return value
    }

    /// A whole number of at least `minimum`, or `fallback` when the key is absent.
    func count(_ value: Int?, _ key: String, default fallback: Int, minimum: Int = 1) throws(ConfigError) -> Int {
        guard let value else { return fallback }
        guard value >= minimum else { throw ConfigError(path: path, key: key, problem: "must be \(minimum) or more, got \(value)") }
        return value
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
