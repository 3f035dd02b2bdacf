import AreasTestSupport
import Foundation
import Glibc

/// A real systemd, booted with `systemd-nspawn --boot` on an overlay of this machine's root:
/// the toolchain and the system are there as they are here, the package's checkout (with its
/// binaries) is bound read-only at `checkout`, and whatever the test installs goes into the
/// overlay, never onto the host. Commands run inside through `nsenter`.
///
/// The checkout gets a fixed place of its own because the container's /tmp, and a service's
/// with `PrivateTmp=yes`, is a fresh one: a checkout under /tmp would not be seen there.
/// `shutDown()` (also at deinit) kills the container and removes the overlay.
final class BootedSystemd {
    static let nspawn = "/usr/bin/systemd-nspawn"
    static let nsenter = "/usr/bin/nsenter"

    /// Root, systemd-nspawn, nsenter and overlayfs: what booting one takes.
    static var available: Bool {
        getuid() == 0 && FileManager.default.isExecutableFile(atPath: nspawn) && FileManager.default.isExecutableFile(atPath: nsenter)
            && ((try? String(contentsOfFile: "/proc/filesystems", encoding: .utf8))?.contains("overlay") ?? false)
    }

    struct DidNotBoot: Error, CustomStringConvertible {
        var description: String
    }

    let folder: String
    /// Where the package's checkout is inside.
    static let checkout = "/opt/areas-checkout"

    /// Whether this process holds CAP_SYS_RESOURCE (bit 24 of its effective set), which a
    /// systemd needs to raise a service's resource limits past its own.
    static let canRaiseResourceLimits: Bool = {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("CapEff:") }),
              let mask = UInt64(line.dropFirst("CapEff:".count).trimmingCharacters(in: .whitespaces), radix: 16) else { return false }
        return mask & (1 << 24) != 0
    }()
    private let root: String
    private let container: Process
    private let log: DaemonLog
    /// The container's PID 1, as this machine numbers it.
    private(set) var initPID: Int32 = 0
    private var down = false

    init() throws {
        folder = Fixtures.temporaryDirectory()
        root = folder + "/root"
        for part in ["upper", "work", "root"] {
            try FileManager.default.createDirectory(atPath: folder + "/" + part, withIntermediateDirectories: true)
        }
        container = Process()
        log = DaemonLog()
        try Self.maskHostServices(in: folder + "/upper")
        let mount = try Binaries.run("/bin/mount", ["-t", "overlay", "overlay", "-o", "lowerdir=/,upperdir=\(folder)/upper,workdir=\(folder)/work", root])
        guard mount.status == 0 else {
            try? FileManager.default.removeItem(atPath: folder)
            throw DidNotBoot(description: "mount overlay: \(mount.stderr)")
        }
        container.executableURL = URL(fileURLWithPath: Self.nspawn)
        // CAP_SYS_RESOURCE, which nspawn withholds from the container and a host's PID 1 has:
        // without it systemd cannot give a service the resource limits its unit asks for
        // (LimitNICE= among them). Granted only where this process has it to give.
        container.arguments = ["-D", root, "--boot", "--private-network", "--register=no", "--keep-unit", "--console=passive"]
            + (Self.canRaiseResourceLimits ? ["--capability=CAP_SYS_RESOURCE"] : []) + ["--bind-ro=\(Fixtures.root):\(Self.checkout)"]
        container.standardOutput = log.pipe
        container.standardError = log.pipe
        container.standardInput = FileHandle.nullDevice
        try container.run()
        log.start()
        // PID 1 inside is nspawn's child once it has exec'd systemd.
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline && initPID == 0 {
            let children = (try? String(contentsOfFile: "/proc/\(container.processIdentifier)/task/\(container.processIdentifier)/children", encoding: .utf8)) ?? ""
            if let child = children.split(separator: " ").first.flatMap({ Int32($0) }),
               (try? String(contentsOfFile: "/proc/\(child)/comm", encoding: .utf8)) == "systemd\n" {
                initPID = child
            } else {
                usleep(100_000)
            }
        }
        guard initPID != 0 else {
            shutDown()
            throw DidNotBoot(description: "no systemd inside after 30 s: \(log.text)")
        }
        // "running", or "degraded" when some unit of the host's own failed in the container;
        // until its bus is up, systemctl cannot ask at all.
        var state = ""
        let booted = Date().addingTimeInterval(60)
        while Date() < booted {
            state = ((try? run("systemctl is-system-running --wait", seconds: 60))?.stdout ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
            if ["running", "degraded"].contains(state) { return }
            usleep(200_000)
        }
        shutDown()
        throw DidNotBoot(description: "systemd says '\(state)' after 60 s: \(log.text)")
    }

    /// The services and timers this machine starts at boot (a database, a metrics server, apt's
    /// timers: whatever the benchmarks and the distribution enabled), masked in the overlay: the
    /// container boots only what the tests install, faster and without their load. Cron stays,
    /// as an operator's host has it.
    static func maskHostServices(in upper: String) throws {
        let units = ["multi-user.target.wants", "timers.target.wants"].flatMap { wants in
            (try? FileManager.default.contentsOfDirectory(atPath: "/etc/systemd/system/" + wants)) ?? []
        }.filter { ($0.hasSuffix(".service") || $0.hasSuffix(".timer")) && $0 != "cron.service" }
        let folder = upper + "/etc/systemd/system"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for unit in Set(units) {
            try FileManager.default.createSymbolicLink(atPath: folder + "/" + unit, withDestinationPath: "/dev/null")
        }
    }

    /// Runs `command` with bash inside the container, killed after `seconds`. Without this
    /// process's `TMPDIR`: that folder is in this machine's /tmp, and the container has a /tmp
    /// of its own.
    @discardableResult
    func run(_ command: String, seconds: Double = 30) throws -> (status: Int32, stdout: String, stderr: String) {
        try Binaries.run("/usr/bin/timeout", ["--kill-after=5", String(Int(seconds)), Self.nsenter, "-t", String(initPID), "-a",
                                              "/usr/bin/env", "-u", "TMPDIR", "/bin/bash", "-c", command],
                         seconds: seconds + 10)
    }

    /// Writes `text` to `path` inside the container (through the overlay).
    func write(_ text: String, to path: String) throws {
        try text.write(toFile: root + path, atomically: true, encoding: .utf8)
    }

    /// Checks `command` every 200 ms until it exits 0, at most `seconds`; false at once when
    /// an areasctl in it says the daemon accepted and did not answer (it answers `health` at
    /// once whether or not it has data, so no later try would be answered either).
    func waitUntil(_ command: String, seconds: Double = 30) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            guard let result = try? run(command, seconds: 10) else { return false }
            if result.status == 0 { return true }
            if result.stderr.contains("did not answer within") { return false }
            usleep(200_000)
        }
        return false
    }

    func shutDown() {
        guard !down else { return }
        down = true
        // Killing PID 1 of the container ends every process in it.
        if initPID != 0 { kill(initPID, SIGKILL) }
        if container.isRunning { kill(container.processIdentifier, SIGKILL) }
        _ = container.waitUntilExit(seconds: 10)
        _ = try? Binaries.run("/bin/umount", ["-l", root])
        try? FileManager.default.removeItem(atPath: folder)
    }

    deinit { shutDown() }
}
