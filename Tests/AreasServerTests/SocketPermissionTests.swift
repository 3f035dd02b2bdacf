import AreasSystem
import AreasTestSupport
import Foundation
import Glibc
import Testing
import AreasTestTraits

/// A user the socket's mode keeps out is told so, by the group that may connect, with exit 77
/// (as a refused refresh), not mistaken for a daemon that is not running (3).
@Suite(.serialized, .tags(.endToEnd), .offThePool, .timeLimit(.minutes(5)),
       .enabled(if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"), "needs root and setpriv, to ask as another user"))
struct SocketPermissionTests {
    @Test func aUserOutsideTheSocketsGroupIsRefusedWith77() throws {
        let daemon = try SampleDaemon(extra: #""socketMode": "0660", "socketGroup": "root""#)
        defer { daemon.stop() }
        // The folder may be entered by anyone: only the socket's own mode keeps the user out.
        try FileSystem.setPermissions(daemon.folder, 0o755)
        let areasctl = Binaries.path("areasctl")
        let asRoot = try Binaries.run(areasctl, ["--socket", daemon.socket, "health"])
        #expect(asRoot.status == 0, "\(asRoot.stderr)")
        let asNobody = try Binaries.run("/usr/bin/setpriv", ["--reuid=nobody", "--regid=nogroup", "--clear-groups", areasctl, "--socket", daemon.socket, "health"])
        #expect(asNobody.status == 77, "\(asNobody.status): \(asNobody.stderr)")
        #expect(asNobody.stderr.contains("permission denied connecting to areasd at \(daemon.socket)"), "\(asNobody.stderr)")
        #expect(asNobody.stderr.contains("members of group root may connect"), "\(asNobody.stderr)")
        #expect(asNobody.stdout.isEmpty)
    }

    /// `socketMode` and `socketGroup` of the line socket, and `http.socketMode` and
    /// `http.socketGroup` of the HTTP one, are the sockets' own mode and group once bound.
    @Test func bothSocketsTakeTheirConfiguredModeAndGroup() throws {
        let folder = Fixtures.temporaryDirectory()
        let http = folder + "/http.sock"
        let daemon = try SampleDaemon(extra: #""socketMode": "0600", "socketGroup": "nogroup", "http": {"socket": "\#(http)", "socketMode": "0640", "socketGroup": "daemon"}"#)
        defer { daemon.stop() }
        let line = try #require(try FileSystem.status(of: daemon.socket))
        #expect(line.kind == .socket && line.permissions & 0o7777 == 0o600, "\(String(line.permissions & 0o7777, radix: 8))")
        #expect(line.group == (try #require(getgrnam("nogroup"))).pointee.gr_gid)
        #expect(DaemonQuestions.waitUntil(seconds: 20) { FileManager.default.fileExists(atPath: http) })
        let front = try #require(try FileSystem.status(of: http))
        #expect(front.kind == .socket && front.permissions & 0o7777 == 0o640, "\(String(front.permissions & 0o7777, radix: 8))")
        #expect(front.group == (try #require(getgrnam("daemon"))).pointee.gr_gid)
    }
}
