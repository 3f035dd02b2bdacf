import AreasTestSupport
import Foundation
import Testing
import AreasTestTraits

/// The shipped units, installed by `config/install.sh` as an operator installs them, under a
/// real systemd (252 on Debian 12) booted in a container: readiness, the status line, who may
/// query, reload, restart, and a stop followed by socket activation on the next query.
@Suite(.tags(.endToEnd), .offThePool, .timeLimit(.minutes(5)),
       .enabled(if: BootedSystemd.available, "needs root, systemd-nspawn and overlayfs (Tests/run.sh installs systemd-container)"))
struct RealSystemdTests {
    /// Installs with `config/install.sh --from` the binaries this build made, puts the sample
    /// config in /etc/areasd (the live sources need keys and the network), enables and starts
    /// the units; returns the config written.
    @discardableResult
    static func installAndStart(_ machine: BootedSystemd) throws -> String {
        let checkout = BootedSystemd.checkout
        let binaries = binariesInside
        let install = try machine.run("cd '\(checkout)' && bash config/install.sh --from '\(binaries)'", seconds: 120)
        #expect(install.status == 0, "install.sh: \(install.stdout)\(install.stderr)")
        var config = try String(contentsOfFile: Fixtures.samplesConfig, encoding: .utf8)
        config = config.replacingOccurrences(of: "\"../../samples/", with: "\"\(checkout)/samples/")
        config = config.replacingOccurrences(of: "~/.cache/areas-samples/areas.snapshot", with: "/var/lib/areasd/areas.snapshot")
        try machine.write(config, to: "/etc/areasd/areasd.json")
        let enable = try machine.run("systemctl daemon-reload && systemctl enable --now areasd.socket areasd.service")
        #expect(enable.status == 0, "\(enable.stderr)")
        return config
    }

    /// Where the binaries this build made are, inside the machine.
    static var binariesInside: String {
        let built = URL(fileURLWithPath: Binaries.path("areasd")).deletingLastPathComponent().path
        return built.hasPrefix(Fixtures.root + "/") ? BootedSystemd.checkout + built.dropFirst(Fixtures.root.count) : built
    }

    @Test func theInstalledUnitsServeRestartAndLetTheGroupIn() throws {
        let machine = try BootedSystemd()
        defer { machine.shutDown() }
        let config = try Self.installAndStart(machine)

        // Type=notify: active once READY=1 came, which areasd sends, with no snapshot, once its
        // first refresh is served; its status line says so.
        #expect(machine.waitUntil("systemctl is-active --quiet areasd.service && areasctl health", seconds: 60), "never healthy")
        #expect(machine.waitUntil("systemctl show -p StatusText --value areasd.service | grep -q '^serving \(SampleCounts.total) areas'", seconds: 10),
                "\((try? machine.run("systemctl show -p StatusText --value areasd.service").stdout) ?? "")")
        let socket = try machine.run("stat -c '%U %G %a' /run/areasd/areasd.sock /run/areasd")
        #expect(socket.stdout == "root areas 660\nroot root 755\n", "\(socket.stdout)\(socket.stderr)")

        // Root, a member of the group, and a user outside it, each with a plain areasctl.
        let asRoot = try machine.run("areasctl near 37.53 126.97 -k 1")
        #expect(asRoot.status == 0 && asRoot.stdout.hasPrefix("DISTANCE"), "\(asRoot.stdout)\(asRoot.stderr)")
        let users = try machine.run("useradd -m alice && usermod -aG areas alice && useradd -m bob")
        #expect(users.status == 0, "\(users.stderr)")
        let member = try machine.run("su alice -c 'areasctl near 37.53 126.97 -k 1'")
        #expect(member.status == 0 && member.stdout.hasPrefix("DISTANCE"), "alice: \(member.status) \(member.stdout)\(member.stderr)")
        let outsider = try machine.run("su bob -c 'areasctl health'")
        #expect(outsider.status == 77, "bob: \(outsider.status) \(outsider.stderr)")
        #expect(outsider.stderr.contains("members of group areas may connect"), "\(outsider.stderr)")

        // Reload, restart and stop: the socket goes on listening, and a query after a stop
        // starts the service again.
        // systemd may still say "reloading" for a moment after `reload` returns on a busy
        // machine: asked again for up to ten seconds.
        let reload = try machine.run("systemctl reload areasd.service && for i in $(seq 100); do [ \"$(systemctl is-active areasd.service)\" = active ] && break; sleep 0.1; done; systemctl is-active areasd.service")
        #expect(reload.status == 0 && reload.stdout == "active\n", "\(reload.stdout)\(reload.stderr)")
        // A broken config fails the reload, saying why, and the service goes on serving.
        try machine.write(#"{"sources": 5}"#, to: "/etc/areasd/areasd.json")
        let broken = try machine.run("systemctl reload areasd.service")
        #expect(broken.status != 0, "a reload with a broken config: \(broken.stdout)\(broken.stderr)")
        let said = try machine.run("journalctl -u areasd.service --no-pager | grep -c 'areasd.json: sources'")
        #expect(said.stdout.trimmingCharacters(in: .whitespacesAndNewlines) != "0", "the journal names the key: \(said.stdout)")
        #expect(try machine.run("systemctl is-active areasd.service && areasctl health").status == 0)
        try machine.write(config, to: "/etc/areasd/areasd.json")
        let restart = try machine.run("systemctl restart areasd.service")
        #expect(restart.status == 0, "\(restart.stderr)")
        #expect(machine.waitUntil("areasctl health", seconds: 30), "no answer after a restart")
        let stop = try machine.run("systemctl stop areasd.service && systemctl is-active areasd.socket")
        #expect(stop.stdout == "active\n", "the socket after a stop: \(stop.stdout)\(stop.stderr)")
        let activated = try machine.run("areasctl --timeout 60 health", seconds: 70)
        #expect(activated.status == 0, "the query after a stop: \(activated.stdout)\(activated.stderr)")
        // The answer can come before systemd has read the READY=1 sent just before it: asked
        // again for up to ten seconds.
        let after = try machine.run("for i in $(seq 100); do [ \"$(systemctl is-active areasd.service)\" = active ] && break; sleep 0.1; done; systemctl is-active areasd.service areasd.socket")
        #expect(after.stdout == "active\nactive\n", "\(after.stdout)")
        let journal = try machine.run("journalctl -u areasd.socket --no-pager")
        #expect(!journal.stdout.contains("POLLHUP"), "\(journal.stdout)")

        // The cron line as installed, run as the user it names.
        let cron = try machine.run("grep -v '^#' /etc/cron.d/areas-refresh | grep areasctl")
        let fields = cron.stdout.split(separator: " ", maxSplits: 6, omittingEmptySubsequences: true)
        try #require(fields.count == 7, "\(cron.stdout)")
        let refresh = try machine.run("su \(fields[5]) -c '\(fields[6].trimmingCharacters(in: .whitespacesAndNewlines))'", seconds: 120)
        #expect(refresh.status == 0, "the cron line: \(refresh.stdout)\(refresh.stderr)")

        // install.sh again, with the same binaries, on a host without cron: it offers no
        // rollback it cannot do, writes no cron file that nothing would read, and says so.
        let again = try machine.run("mv \"$(command -v cron)\" /root/cron.away && rm -f /etc/cron.d/areas-refresh && cd '\(BootedSystemd.checkout)' && bash config/install.sh --from '\(Self.binariesInside)'", seconds: 120)
        #expect(again.status == 0, "install.sh again: \(again.stdout)\(again.stderr)")
        #expect(!again.stdout.contains("--rollback") && again.stdout.contains("(the same binaries)"), "\(again.stdout)")
        #expect(again.stdout.contains("note: no cron on this host"), "\(again.stdout)")
        #expect(try machine.run("test -e /etc/cron.d/areas-refresh").status != 0, "a cron file on a host without cron")
        let rollback = try machine.run("cd '\(BootedSystemd.checkout)' && bash config/install.sh --rollback")
        #expect(rollback.status != 0 && rollback.stderr.contains("no previous binaries"), "\(rollback.stdout)\(rollback.stderr)")
        let service = try machine.run("systemctl show -p WatchdogUSec -p NRestarts -p Result areasd.service")
        for line in ["WatchdogUSec=30s", "NRestarts=0", "Result=success"] {
            #expect(service.stdout.split(separator: "\n").contains(Substring(line)), "\(service.stdout)")
        }
    }

    /// The installed units on a host whose first fetch cannot work (here: nothing listens where
    /// the source is): `enable --now` returns at once (it blocked for the start time-out, 3
    /// minutes, and systemd restarted the service into fetching again every 3 minutes), the
    /// service stays up with no restart, answers `unavailable` naming the failure, its status
    /// line says it, and the retries back off.
    @Test func aFirstStartWithoutDataIsReadyAndBacksOff() throws {
        let machine = try BootedSystemd()
        defer { machine.shutDown() }
        let install = try machine.run("cd '\(BootedSystemd.checkout)' && bash config/install.sh --from '\(Self.binariesInside)'", seconds: 120)
        #expect(install.status == 0, "install.sh: \(install.stdout)\(install.stderr)")
        try machine.write(#"{"snapshot": "/var/lib/areasd/areas.snapshot", "sources": [{"name": "zones", "kind": "nonsmoking", "format": "data-go-kr-xml", "url": "http://127.0.0.1:9/zones", "timeoutSeconds": 2, "retries": 0}]}"#,
                          to: "/etc/areasd/areasd.json")
        let started = Date()
        let enable = try machine.run("systemctl daemon-reload && systemctl enable --now areasd.socket areasd.service", seconds: 150)
        #expect(enable.status == 0, "\(enable.stdout)\(enable.stderr)")
        #expect(Date().timeIntervalSince(started) < 60, "enable --now took \(Int(Date().timeIntervalSince(started))) s")
        #expect(machine.waitUntil("areasctl near 37.5 127 2>&1 | grep -q 'zones: '", seconds: 30), "\((try? machine.run("areasctl near 37.5 127").stderr) ?? "")")
        let near = try machine.run("areasctl near 37.5 127")
        #expect(near.status == 1 && near.stderr.contains("unavailable: no data loaded: the last refresh failed (zones: "), "\(near.stderr)")
        #expect(machine.waitUntil("systemctl show -p StatusText --value areasd.service | grep -q 'the last refresh failed'", seconds: 10))
        let service = try machine.run("systemctl show -p NRestarts -p ActiveState areasd.service")
        #expect(service.stdout.contains("NRestarts=0") && service.stdout.contains("ActiveState=active"), "\(service.stdout)")
        // The second attempt a minute after the first, saying when the third comes.
        #expect(machine.waitUntil("journalctl -u areasd.service --no-pager | grep -q 'refresh attempt 2; if it fails, the next in 2 min'", seconds: 90),
                "\((try? machine.run("journalctl -u areasd.service --no-pager | tail -20").stdout) ?? "")")

        // The config install.sh puts in place, with the key file not yet filled in: the service
        // starts (it exited 78 and systemd restarted it in a loop), and `health` says which
        // variable is missing and where the service reads it from.
        let live = try machine.run("cp '\(BootedSystemd.checkout)/config/areasd.live.json' /etc/areasd/areasd.json && grep -c '^DATA_GO_KR_KEY=' /etc/areasd/areasd.env; systemctl restart areasd.service", seconds: 60)
        #expect(live.status == 0 && live.stdout.hasPrefix("0"), "\(live.stdout)\(live.stderr)")
        #expect(machine.waitUntil("areasctl health 2>&1 | grep -q 'DATA_GO_KR_KEY is not set'", seconds: 30), "\((try? machine.run("areasctl health").stderr) ?? "")")
        let health = try machine.run("areasctl health")
        #expect(health.status == 1 && health.stderr.contains("/etc/areasd/areasd.env"), "\(health.stderr)")
        let keyless = try machine.run("systemctl show -p NRestarts -p ActiveState areasd.service")
        #expect(keyless.stdout.contains("NRestarts=0") && keyless.stdout.contains("ActiveState=active"), "\(keyless.stdout)")
    }

    /// A fresh install is ready when it has something to serve: `enable --now` (here a start
    /// with no snapshot, five times over, one source answering 2 s after it is asked) returns to
    /// a daemon whose next `near` answers with the samples, never `unavailable` (READY waited
    /// for the sockets only, and the first question came before the first refresh had ended).
    /// The slow source makes the window a first refresh leaves certain, not a matter of load.
    @Test func aFreshStartIsReadyOnlyWithItsData() throws {
        let machine = try BootedSystemd()
        defer { machine.shutDown() }
        var config = try Self.installAndStart(machine)
        let seocho = "\"file\": \"\(BootedSystemd.checkout)/samples/district-files/seocho-smoking.csv\""
        let slow = config.replacingOccurrences(of: seocho, with: #""url": "http://127.0.0.1:8098/seocho.csv""#)
        try #require(slow != config, "the samples config has no \(seocho)")
        // READY's bound well past a first refresh on a loaded machine (other tests' machines
        // booting beside this one): what is tested is that READY waits for the data, not the
        // bound (`aHangingSourceHoldsTheStartNoLongerThanTheBound`).
        config = slow.replacingOccurrences(of: "{", with: #"{"startReadySeconds": 90,"#, options: [], range: slow.range(of: "{"))
        try machine.write(config, to: "/etc/areasd/areasd.json")
        // The source's file, each answer given 2 s after it was asked, as a service of the
        // machine's systemd (a command left running in the background of `run` would hold it).
        try machine.write("""
            import http.server, time
            body = open("\(BootedSystemd.checkout)/samples/district-files/seocho-smoking.csv", "rb").read()
            class Slow(http.server.BaseHTTPRequestHandler):
                def do_GET(self):
                    time.sleep(2)
                    self.send_response(200)
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
            http.server.ThreadingHTTPServer(("127.0.0.1", 8098), Slow).serve_forever()
            """, to: "/root/slow-peer.py")
        let peer = try machine.run("systemd-run --unit=slow-peer /usr/bin/python3 /root/slow-peer.py && sleep 1")
        #expect(peer.status == 0, "\(peer.stderr)")
        defer { _ = try? machine.run("systemctl stop slow-peer") }
        var failures: [String] = []
        for round in 1...5 {
            // The start's own time printed first: it returns after the slow source answered.
            let run = try machine.run("systemctl stop areasd.service && rm -f /var/lib/areasd/areas.snapshot* && a=$(date +%s%N) && systemctl start areasd.service && echo $(( ($(date +%s%N) - a) / 1000000 )) && areasctl near 37.53 126.97 -k 1", seconds: 120)
            let lines = run.stdout.split(separator: "\n", maxSplits: 1).map(String.init)
            let startMilliseconds = Int(lines.first ?? "") ?? 0
            if run.status != 0 || lines.count < 2 || !lines[1].hasPrefix("DISTANCE") || startMilliseconds < 2_000 {
                failures.append("round \(round): \(run.status), the start took \(startMilliseconds) ms: \(run.stdout)\(run.stderr)")
            }
        }
        #expect(failures.isEmpty, "\(failures.count) of 5 starts did not wait for the data and answer: \(failures.prefix(3))")
        let status = try machine.run("systemctl show -p StatusText --value areasd.service")
        #expect(status.stdout.hasPrefix("serving \(SampleCounts.total) areas"), "\(status.stdout)")
    }

    /// A source that never answers holds no start past `startReadySeconds`: `enable --now`
    /// returns within the bound, and the status line and the answers say the first refresh
    /// is still running.
    @Test func aHangingSourceHoldsTheStartNoLongerThanTheBound() throws {
        let machine = try BootedSystemd()
        defer { machine.shutDown() }
        let install = try machine.run("cd '\(BootedSystemd.checkout)' && bash config/install.sh --from '\(Self.binariesInside)'", seconds: 120)
        #expect(install.status == 0, "install.sh: \(install.stdout)\(install.stderr)")
        // A peer whose connections are taken (the kernel's backlog) and never answered.
        let peer = try machine.run(#"systemd-run --unit=silent-peer /usr/bin/python3 -c 'import socket, time; s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1); s.bind(("127.0.0.1", 8099)); s.listen(64); time.sleep(100000)' && sleep 1"#)
        #expect(peer.status == 0, "\(peer.stderr)")
        try machine.write(#"{"snapshot": "/var/lib/areasd/areas.snapshot", "startReadySeconds": 5, "sources": [{"name": "zones", "kind": "nonsmoking", "format": "data-go-kr-xml", "url": "http://127.0.0.1:8099/zones", "timeoutSeconds": 300, "retries": 0}]}"#,
                          to: "/etc/areasd/areasd.json")
        let started = Date()
        let enable = try machine.run("systemctl daemon-reload && systemctl enable --now areasd.socket areasd.service", seconds: 150)
        let took = Date().timeIntervalSince(started)
        #expect(enable.status == 0, "\(enable.stdout)\(enable.stderr)")
        #expect(took >= 4 && took < 30, "enable --now took \(Int(took)) s with startReadySeconds 5")
        let status = try machine.run("systemctl show -p StatusText --value areasd.service")
        #expect(status.stdout.hasPrefix("no data loaded yet: the first refresh is running (0 of 1 sources)"), "\(status.stdout)")
        let near = try machine.run("areasctl near 37.5 127")
        #expect(near.status == 1 && near.stderr.contains("unavailable: no data loaded yet: the first refresh is running"), "\(near.stderr)")
        let journal = try machine.run("journalctl -u areasd.service --no-pager | grep -c 'ready without data'")
        #expect(journal.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "1", "\(journal.stdout)")
    }

    /// The unit's LimitNICE lets Dispatch give each worker thread the nice value of its quality
    /// of service (down to -4) without a capability, so no start logs that it could not. Only
    /// where this machine lets systemd raise a resource limit at all.
    @Test(.enabled(if: BootedSystemd.canRaiseResourceLimits, "this machine withholds CAP_SYS_RESOURCE and caps RLIMIT_NICE at 0, so no systemd here can apply LimitNICE="))
    func dispatchMaySetItsThreadsPriorities() throws {
        let machine = try BootedSystemd()
        defer { machine.shutDown() }
        try Self.installAndStart(machine)
        #expect(machine.waitUntil("systemctl is-active --quiet areasd.service && areasctl health", seconds: 60), "never healthy")
        let limits = try machine.run("grep 'Max nice priority' /proc/$(systemctl show -p MainPID --value areasd.service)/limits")
        #expect(limits.stdout.split(separator: " ", omittingEmptySubsequences: true).dropFirst(3).first == "24", "\(limits.stdout)")
        let journal = try machine.run("journalctl -u areasd.service --no-pager")
        #expect(!journal.stdout.contains("Failed to set thread priority"), "\(journal.stdout)")
    }

    /// The Operating article's `systemd-run` line, as written: the way to run areasd once under
    /// systemd without installing the units.
    @Test func theOperatingArticlesSystemdRunCommandServes() throws {
        let article = try String(contentsOfFile: Fixtures.path("Sources/AreasServer/AreasServer.docc/Operating.md"), encoding: .utf8)
        let lines = article.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let start = try #require(lines.firstIndex { $0.hasPrefix("systemd-run ") }, "the article has no systemd-run line")
        var command = ""
        for line in lines[start...] {
            command += line.hasSuffix("\\") ? String(line.dropLast()) : line
            if !line.hasSuffix("\\") { break }
        }
        let machine = try BootedSystemd()
        defer { machine.shutDown() }
        let built = URL(fileURLWithPath: Binaries.path("areasd")).deletingLastPathComponent().path
        let binaries = built.hasPrefix(Fixtures.root + "/") ? BootedSystemd.checkout + built.dropFirst(Fixtures.root.count) : built
        let copied = try machine.run("install -m 0755 '\(binaries)/areasd' '\(binaries)/areasctl' /usr/local/bin/ && install -d /etc/areasd")
        #expect(copied.status == 0, "\(copied.stderr)")
        var config = try String(contentsOfFile: Fixtures.samplesConfig, encoding: .utf8)
        config = config.replacingOccurrences(of: "\"../../samples/", with: "\"\(BootedSystemd.checkout)/samples/")
        config = config.replacingOccurrences(of: #""snapshot": "~/.cache/areas-samples/areas.snapshot","#, with: "")
        try machine.write(config, to: "/etc/areasd/areasd.json")
        let run = try machine.run(command, seconds: 90)
        #expect(run.status == 0, "\(command): \(run.stdout)\(run.stderr)")
        // Type=notify: systemd-run returns once READY=1 came, when the socket listens (in
        // RuntimeDirectory); the first refresh then fills the snapshot in StateDirectory.
        #expect(try machine.run("systemctl is-active areasd.service").stdout == "active\n")
        #expect(machine.waitUntil("areasctl --socket /run/areasd/areasd.sock health | grep -q '^ok: \(SampleCounts.total) areas'", seconds: 60),
                "\((try? machine.run("areasctl --socket /run/areasd/areasd.sock health").stdout) ?? "")")
        #expect(try machine.run("test -s /var/lib/areasd/areas.snapshot").status == 0, "no snapshot in the state folder")
        #expect(machine.waitUntil("systemctl show -p StatusText --value areasd.service | grep -q '^serving \(SampleCounts.total) areas'", seconds: 10),
                "\((try? machine.run("systemctl show -p StatusText --value areasd.service").stdout) ?? "")")
        #expect(try machine.run("systemctl stop areasd.service").status == 0)
    }
}
