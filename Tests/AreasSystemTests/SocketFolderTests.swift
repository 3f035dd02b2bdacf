import Foundation
import Glibc
import Testing
@testable import AreasSystem
import AreasTestTraits

/// The folder a socket is made in must not let another user swap the socket for their own.
@Suite(.offThePool, .timeLimit(.minutes(5)))
final class SocketFolderTests {
    /// The folders this test made, removed when it ends however it ends.
    private var made: [String] = []

    deinit { for path in made { try? FileManager.default.removeItem(atPath: path) } }

    func folder(mode: mode_t, owner: uid_t? = nil) throws -> String {
        let path = NSTemporaryDirectory() + "areas-socket-folder-\(UUID().uuidString.prefix(8))"
        try #require(mkdir(path, 0o700) == 0)
        made.append(path)
        try #require(chmod(path, mode) == 0)
        if let owner { try #require(chown(path, owner, gid_t.max) == 0) }
        return path
    }

    @Test func aFolderAnyoneMayWriteToIsRefused() throws {
        let folder = try folder(mode: 0o777)
        #expect(throws: SocketPath.Problem.self) { try SocketPath.prepare(folder + "/areasd.sock") }
        do {
            try SocketPath.prepare(folder + "/areasd.sock")
        } catch {
            #expect(error.description.contains("anyone may write to it (mode 777)"), "\(error)")
        }
    }

    @Test func aFolderAnotherUserOwnsIsRefused() throws {
        // Making a folder another user owns takes root; as anyone else, the check is asked
        // about a uid that is not the folder's owner.
        let folder = try folder(mode: 0o755, owner: getuid() == 0 ? 4242 : nil)
        let asUser: uid_t = getuid() == 0 ? 0 : getuid() &+ 1
        do {
            try SocketPath.prepare(folder + "/areasd.sock", uid: asUser)
            Issue.record("a folder owned by another user was accepted")
        } catch {
            #expect(error.description.contains("belongs to uid"), "\(error)")
        }
    }

    @Test(arguments: [mode_t(0o700), 0o755, 0o1777])
    func foldersThatAreFine(mode: mode_t) throws {
        let folder = try folder(mode: mode)
        try SocketPath.prepare(folder + "/areasd.sock")
    }

    /// Only the socket this process bound is removed: a file put at the name since stays.
    @Test func onlyTheBoundSocketIsRemoved() throws {
        let folder = try folder(mode: 0o700)
        let path = folder + "/areasd.sock"
        let mine = try Sockets.listenUnix(path: path)
        defer { mine.close() }
        let identity = try #require(SocketPath.identity(of: path))
        // Someone replaces the name with a socket of their own.
        unlink(path)
        let theirs = try Sockets.listenUnix(path: path)
        defer { theirs.close() }
        SocketPath.remove(path, ifStill: identity)
        #expect(SocketPath.identity(of: path) != nil, "their socket was removed")
        let current = try #require(SocketPath.identity(of: path))
        SocketPath.remove(path, ifStill: current)
        #expect(SocketPath.identity(of: path) == nil)
    }

    /// A folder made for the socket goes with it (a daemon run by hand as root left an empty
    /// `/run/areasd/`); a folder that was there stays, and so does a made one that holds more.
    @Test func theFolderMadeForTheSocketGoesWithIt() throws {
        let outer = try folder(mode: 0o755)
        for keepsSomething in [false, true] {
            let made = outer + "/run-\(keepsSomething)"
            let path = made + "/areasd.sock"
            #expect(try SocketPath.prepare(path) == made)
            let socket = try Sockets.listenUnix(path: path)
            defer { socket.close() }
            if keepsSomething { _ = FileManager.default.createFile(atPath: made + "/other", contents: Data()) }
            SocketPath.remove(path, ifStill: try #require(SocketPath.identity(of: path)), folder: made)
            #expect(FileManager.default.fileExists(atPath: made) == keepsSomething)
        }
        // Already there: not made, so not to be removed.
        #expect(try SocketPath.prepare(outer + "/areasd.sock") == nil)
    }
}
