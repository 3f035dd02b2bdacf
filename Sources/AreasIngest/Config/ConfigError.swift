/// Why a configuration file was refused: always names the file, and the key when there is one.
public struct ConfigError: Error, Sendable, Equatable, CustomStringConvertible {
    public var path: String
    public var key: String?
    public var problem: String

    public init(path: String, key: String? = nil, problem: String) {
        self.path = path
        self.key = key
        self.problem = problem
    }

    public var description: String {
        "\(path): " + (key.map { "\($0): " } ?? "") + problem
    }
}
