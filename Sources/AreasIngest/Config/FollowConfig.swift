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

    package init(leader: Leader, intervalSeconds: Double = ConfigKeys.Follow.intervalSeconds.defaultNumber, timeoutSeconds: Double = ConfigKeys.Follow.timeoutSeconds.defaultNumber) {
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

extension AreasConfig {
    static func parseFollow(_ f: ConfigObject) throws(ConfigError) -> FollowConfig {
        typealias Key = ConfigKeys.Follow
        let leader: FollowConfig.Leader
        switch (try f.string(Key.url), try f.path(Key.file)) {
        case (let url?, nil):
            guard url.hasPrefix("http://") || url.hasPrefix("https://") else {
                throw f.problem("url", "'\(url)' is not an http or https URL")
            }
            leader = .url(url)
        case (nil, let file?):
            leader = .file(file)
        default:
            throw f.problem("", "give one of \"url\" (the leader's /v1/snapshot) or \"file\" (its snapshot on a share)")
        }
        return FollowConfig(leader: leader, intervalSeconds: try f.number(Key.intervalSeconds), timeoutSeconds: try f.number(Key.timeoutSeconds))
    }
}
