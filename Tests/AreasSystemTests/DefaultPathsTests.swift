import AreasSystem
import Testing
import AreasTestTraits

/// Where areasd and areasctl look when given no path: the README's order, first match wins.
@Suite(.offThePool, .timeLimit(.minutes(5))) struct DefaultPathsTests {
    @Test(arguments: [
        (["AREAS_SOCKET": "/x/a.sock", "RUNTIME_DIRECTORY": "/run/areasd"], UInt32(1000), "/x/a.sock"),
        (["RUNTIME_DIRECTORY": "/run/areasd:/run/other"], 1000, "/run/areasd/areasd.sock"),
        (["AREAS_SOCKET": "", "XDG_RUNTIME_DIR": "/run/user/1000"], 0, "/run/areasd/areasd.sock"),
        (["XDG_RUNTIME_DIR": "/run/user/1000"], 1000, "/run/user/1000/areasd.sock"),
        (["XDG_RUNTIME_DIR": ""], 1000, "/tmp/areasd-1000/areasd.sock"),
        ([:], 1000, "/tmp/areasd-1000/areasd.sock"),
    ] as [([String: String], UInt32, String)])
    func socket(environment: [String: String], uid: UInt32, expected: String) {
        #expect(DefaultPaths.socket(environment: environment, uid: uid) == expected)
    }

    /// areasctl: the installed daemon's socket for every user once the environment names none,
    /// when it is there; else the same rule as the daemon's.
    @Test(arguments: [
        (["AREAS_SOCKET": "/x/a.sock"], UInt32(1000), true, "/x/a.sock"),
        (["RUNTIME_DIRECTORY": "/run/other"], 1000, true, "/run/other/areasd.sock"),
        (["XDG_RUNTIME_DIR": "/run/user/1000"], 1000, true, "/run/areasd/areasd.sock"),
        (["XDG_RUNTIME_DIR": "/run/user/1000"], 1000, false, "/run/user/1000/areasd.sock"),
        ([:], 1000, false, "/tmp/areasd-1000/areasd.sock"),
        ([:], 0, false, "/run/areasd/areasd.sock"),
    ] as [([String: String], UInt32, Bool, String)])
    func clientSocket(environment: [String: String], uid: UInt32, installed: Bool, expected: String) {
        #expect(DefaultPaths.clientSocket(environment: environment, uid: uid, exists: { $0 == "/run/areasd/areasd.sock" && installed }) == expected)
    }

    /// areasd without --config: systemd's ConfigurationDirectory, the installed file, the samples.
    @Test(arguments: [
        (["CONFIGURATION_DIRECTORY": "/etc/custom:/etc/other"], true, "/etc/custom/areasd.json"),
        ([:], true, "/etc/areasd/areasd.json"),
        ([:], false, "config/areasd.json"),
    ] as [([String: String], Bool, String)])
    func config(environment: [String: String], installed: Bool, expected: String) {
        #expect(DefaultPaths.config(environment: environment, exists: { $0 == "/etc/areasd/areasd.json" && installed }) == expected)
    }

    @Test(arguments: [
        (["STATE_DIRECTORY": "/var/lib/areasd:/var/lib/other", "HOME": "/home/a"], UInt32(1000), "/var/lib/areasd/areas.snapshot"),
        (["HOME": "/root"], 0, "/var/lib/areasd/areas.snapshot"),
        (["XDG_STATE_HOME": "/home/a/.state", "HOME": "/home/a"], 1000, "/home/a/.state/areas/areas.snapshot"),
        (["HOME": "/home/a"], 1000, "/home/a/.local/state/areas/areas.snapshot"),
        ([:], 1000, "/tmp/areas-1000/.local/state/areas/areas.snapshot"),
    ] as [([String: String], UInt32, String)])
    func snapshot(environment: [String: String], uid: UInt32, expected: String) {
        #expect(DefaultPaths.snapshot(environment: environment, uid: uid) == expected)
    }
}
