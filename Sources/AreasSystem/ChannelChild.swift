import CMemoryHints
import Glibc

/// A child process that talks to its parent over one Unix stream socket, its descriptor 3.
///
/// The child gets `/dev/null` for standard input, the parent's standard output and error (so
/// its log lines reach the same journal), and no other descriptor: a daemon's listening
/// sockets, snapshot and connections stay with the daemon, whatever their close-on-exec flag.
package struct ChannelChild: Sendable {
    /// The descriptor the child finds its end of the channel on.
    package static let channelDescriptor: Int32 = 3

    package let pid: pid_t
    /// The parent's end of the channel.
    package let channel: FileDescriptor

    /// Starts `program` with `arguments` (the first is its `argv[0]`) and the environment.
    package static func start(_ program: String, _ arguments: [String]) throws(SystemError) -> ChannelChild {
        var ends: [Int32] = [0, 0]
        try systemCall("socketpair") { socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        // dup2 clears close-on-exec on the copy, so the child's end survives the exec.
        posix_spawn_file_actions_adddup2(&actions, ends[1], channelDescriptor)
        areas_spawn_close_from(&actions, channelDescriptor + 1)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // The daemon ignores SIGPIPE and blocks signals on its threads; the child starts clean.
        var defaults = sigset_t(), none = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, program, &actions, &attributes, argv, environ)
        Glibc.close(ends[1])
        guard spawned == 0 else {
            Glibc.close(ends[0])
            // posix_spawn returns its error instead of setting errno.
            throw SystemError("posix_spawn", errno: spawned, subject: program)
        }
        return ChannelChild(pid: pid, channel: FileDescriptor(rawValue: ends[0]))
    }

    /// Waits for the child to end and says how it ended ("exited with status 1", "killed by
    /// signal 9").
    package func reap() -> String {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            if errno != EINTR { return "could not be waited for: \(String(cString: strerror(errno)))" }
        }
        let signal = status & 0x7f
        return signal == 0 ? "exited with status \((status >> 8) & 0xff)" : "killed by signal \(signal)"
    }

    /// Sends the child SIGKILL.
    package func kill() { _ = Glibc.kill(pid, SIGKILL) }
}
