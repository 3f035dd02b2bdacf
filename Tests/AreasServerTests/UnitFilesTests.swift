import AreasTestSupport
import Foundation
import Testing
import AreasTestTraits

/// The shipped systemd units: valid for systemd's own checker, confined to the exposure the
/// README and the Operating article promise (1.2), letting the group areas query through a
/// socket a service stop cannot remove.
@Suite(.offThePool, .tags(.endToEnd), .timeLimit(.minutes(5)))
struct UnitFilesTests {
    static let analyze = "/usr/bin/systemd-analyze"

    /// The units copied with ExecStart pointing at the areasd just built (verify checks that
    /// the program exists).
    static func unitFolder() throws -> String {
        let folder = Fixtures.temporaryDirectory()
        for name in ["areasd.service", "areasd.socket"] {
            var text = try String(contentsOfFile: Fixtures.path("config/" + name), encoding: .utf8)
            text = text.replacingOccurrences(of: "/usr/local/bin/areasd", with: Binaries.path("areasd"))
            try text.write(toFile: folder + "/" + name, atomically: true, encoding: .utf8)
        }
        return folder
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: analyze), "needs systemd-analyze (Debian's systemd package)"))
    func theUnitsPassVerifyAndScoreAsPromised() throws {
        let folder = try Self.unitFolder()
        let verify = try Binaries.run(Self.analyze, ["verify", folder + "/areasd.socket", folder + "/areasd.service"])
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
        #expect(verify.stderr.isEmpty && verify.stdout.isEmpty, "\(verify.stdout)\(verify.stderr)")
        let security = try Binaries.run(Self.analyze, ["security", "--offline=true", folder + "/areasd.service"])
        let score = security.stdout.split(separator: "\n").last { $0.contains("Overall exposure level") }
            .flatMap { $0.split(separator: ":").last?.split(separator: " ").first }.flatMap { Double($0) }
        let exposure = try #require(score, "\(security.stdout)")
        #expect(exposure <= 1.2, "exposure \(exposure)")
    }

    /// Dispatch renices its workers down to -4 (user-interactive QoS); the unit allows that much
    /// and no more. Checked under a real systemd by RealSystemdTests where the machine permits.
    @Test func theServiceAllowsDispatchsNiceValues() throws {
        let service = try String(contentsOfFile: Fixtures.path("config/areasd.service"), encoding: .utf8)
        let limits = service.split(separator: "\n").filter { $0.hasPrefix("LimitNICE=") }
        #expect(limits == ["LimitNICE=-4"], "\(limits)")
    }

    @Test func theSocketIsForTheGroupAreasAndOutlivesAServiceStop() throws {
        let socket = try String(contentsOfFile: Fixtures.path("config/areasd.socket"), encoding: .utf8)
        let service = try String(contentsOfFile: Fixtures.path("config/areasd.service"), encoding: .utf8)
        func lines(_ text: String) -> [Substring] { text.split(separator: "\n").filter { !$0.hasPrefix("#") } }
        #expect(lines(socket).contains("SocketGroup=areas"))
        #expect(lines(socket).contains("SocketMode=0660"))
        // systemd makes the socket's folder; a RuntimeDirectory of a DynamicUser service would
        // be moved under /run/private (0700) and given to the dynamic user, out of the group's reach.
        #expect(lines(socket).contains("ListenStream=/run/areasd/areasd.sock"))
        #expect(lines(socket).contains("DirectoryMode=0755"))
        #expect(!lines(service).contains { $0.hasPrefix("RuntimeDirectory") })
        #expect(lines(service).contains("Requires=areasd.socket"))
        let install = try String(contentsOfFile: Fixtures.path("config/install.sh"), encoding: .utf8)
        #expect(install.contains("groupadd --system areas"))
    }
}
