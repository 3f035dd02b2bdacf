/// Why a configuration file was refused: always names the file, and the key when there is one.
package struct ConfigError: Error, Sendable, Equatable, CustomStringConvertible {
    package var path: String
    package var key: String?
    package var problem: String
    /// The file's other problems, found in the same reading.
    package var others: [ConfigError] = []

    package init(path: String, key: String? = nil, problem: String) {
        self.path = path
        self.key = key
        self.problem = problem
    }

    /// This problem, then each other one, a line each.
    package var description: String {
        ([line] + others.map(\.line)).joined(separator: "\n")
    }

    /// This problem alone.
    package var line: String {
        "\(path): " + (key.map { "\($0): " } ?? "") + problem
    }
}
