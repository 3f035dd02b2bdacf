import Glibc

/// Where areasd and areasctl look when no path is given, so both find each other without flags.
package enum DefaultPaths {
    /// `$AREAS_SOCKET`, else `$RUNTIME_DIRECTORY/areasd.sock` (systemd), else
    /// `/run/areasd/areasd.sock` as root, else `$XDG_RUNTIME_DIR/areasd.sock`, else
    /// `/tmp/areasd-$UID/areasd.sock`.
    package static func socket(environment: [String: String], uid: UInt32 = getuid()) -> String {
        if let path = environment["AREAS_SOCKET"], !path.isEmpty { return path }
        if let directory = firstOf(environment["RUNTIME_DIRECTORY"]) { return directory + "/areasd.sock" }
        if uid == 0 { return systemSocket }
        if let directory = environment["XDG_RUNTIME_DIR"], !directory.isEmpty { return directory + "/areasd.sock" }
        return "/tmp/areasd-\(uid)/areasd.sock"
    }

    /// The installed daemon's socket (`config/areasd.socket`).
    package static let systemSocket = "/run/areasd/areasd.sock"

    /// Where areasctl asks: as `socket`, except that the installed daemon's socket comes before
    /// a user's own once `$AREAS_SOCKET` and `$RUNTIME_DIRECTORY` are not set, whoever asks, when
    /// something is there (`exists`): a member of the socket's group then reaches the installed
    /// daemon with a plain `areasctl near 37.53 126.97`.
    package static func clientSocket(environment: [String: String], uid: UInt32 = getuid(),
                                     exists: (String) -> Bool = { (try? FileSystem.status(of: $0)) != nil }) -> String {
        if let path = environment["AREAS_SOCKET"], !path.isEmpty { return path }
        if let directory = firstOf(environment["RUNTIME_DIRECTORY"]) { return directory + "/areasd.sock" }
        if exists(systemSocket) { return systemSocket }
        return socket(environment: environment, uid: uid)
    }

    /// The installed config (`config/install.sh` writes it).
    package static let systemConfig = "/etc/areasd/areasd.json"

    /// The config areasd reads without `--config`: `$CONFIGURATION_DIRECTORY/areasd.json`
    /// (systemd), else the installed `/etc/areasd/areasd.json` when it is there, else the
    /// checkout's `config/areasd.json` (the bundled samples).
    package static func config(environment: [String: String], exists: (String) -> Bool = { (try? FileSystem.status(of: $0)) != nil }) -> String {
        if let directory = firstOf(environment["CONFIGURATION_DIRECTORY"]) { return directory + "/areasd.json" }
        if exists(systemConfig) { return systemConfig }
        return "config/areasd.json"
    }

    /// `$STATE_DIRECTORY/areas.snapshot` (systemd), else `/var/lib/areasd/areas.snapshot` as root,
    /// else `$XDG_STATE_HOME/areas/areas.snapshot`, else `~/.local/state/areas/areas.snapshot`.
    package static func snapshot(environment: [String: String], uid: UInt32 = getuid()) -> String {
        if let directory = firstOf(environment["STATE_DIRECTORY"]) { return directory + "/areas.snapshot" }
        if uid == 0 { return "/var/lib/areasd/areas.snapshot" }
        if let directory = environment["XDG_STATE_HOME"], !directory.isEmpty { return directory + "/areas/areas.snapshot" }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp/areas-\(uid)"
        return home + "/.local/state/areas/areas.snapshot"
    }

    /// systemd joins several directories with ':'; the first is ours.
    private static func firstOf(_ list: String?) -> String? {
        guard let list, let first = list.split(separator: ":").first, !first.isEmpty else { return nil }
        return String(first)
    }
}
