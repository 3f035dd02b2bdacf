/// Why a configuration file was refused: always names the file, and the key when there is one.
package struct ConfigError: Error, Sendable, Equatable, CustomStringConvertible {
    package var path: String
    package var key: String?
    package var problem: String

    package init(path: String, key: String? = nil, problem: String) {
        self.path = path
        self.key = key
        self.problem = problem
    }

    package var description: String {
        "\(path): " + (key.map { "\($0): " } ?? "") + problem
    }
}
