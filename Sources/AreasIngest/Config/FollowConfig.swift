/// The `follow` key: this daemon fetches no source and serves the snapshot another one (the
/// leader) writes, from a URL (the leader's `GET /v1/snapshot`, or any static server) or a file
/// (a share), checked every `intervalSeconds`.
package struct FollowConfig: Sendable, Equatable {
    package enum Leader: Sendable, Equatable {
        case url(String)
        case file(String)
    }

    package var leader: Leader
    package var intervalSeconds: Double
    /// A download of the leader's snapshot gives up after this long.
    package var timeoutSeconds: Double

    package init(leader: Leader, intervalSeconds: Double = 60, timeoutSeconds: Double = 120) {
        self.leader = leader
        self.intervalSeconds = intervalSeconds
        self.timeoutSeconds = timeoutSeconds
    }

    /// Where the leader's snapshot is, as the logs and `stats` name it.
    package var name: String {
        switch leader {
        case .url(let url): return url
        case .file(let path): return path
        }
    }
}

struct RawFollow: Decodable {
    var url: String?
    var file: String?
    var intervalSeconds: Double?
    var timeoutSeconds: Double?
}

extension AreasConfig {
    static func parseFollow(_ raw: RawFollow, path: String, resolve: (String) -> String) throws(ConfigError) -> FollowConfig {
        let leader: FollowConfig.Leader
        switch (raw.url, raw.file) {
        case (let url?, nil):
            guard url.hasPrefix("http://") || url.hasPrefix("https://") else {
                throw ConfigError(path: path, key: "follow.url", problem: "'\(url)' is not an http or https URL")
            }
            leader = .url(url)
        case (nil, let file?):
            leader = .file(resolve(file))
        default:
            throw ConfigError(path: path, key: "follow", problem: "give one of \"url\" (the leader's /v1/snapshot) or \"file\" (its snapshot on a share)")
        }
        let check = ValueCheck(path: path)
        return FollowConfig(leader: leader,
                            intervalSeconds: try check.number(raw.intervalSeconds, "follow.intervalSeconds", default: 60, minimum: 1, maximum: 86_400),
                            timeoutSeconds: try check.number(raw.timeoutSeconds, "follow.timeoutSeconds", default: 120, minimum: 1, maximum: 3_600))
    }
}
