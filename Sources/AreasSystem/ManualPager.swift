import Glibc

/// Shows a manual page the way `man` shows its own when standard output is a terminal: formatted
/// and paged by `man -l -`. Piped or redirected, the roff source is what is wanted (to install,
/// or to read with another tool), so it is printed as it is.
package enum ManualPager {
    /// Shows `roff` through `man -l -` and returns true, or returns false when standard output is
    /// not a terminal or `man` cannot be run (the caller then prints the source).
    package static func show(_ roff: String) -> Bool {
        guard isatty(1) == 1, let man = findInPath("man") else { return false }
        var pipe: [Int32] = [0, 0]
        guard Glibc.pipe(&pipe) == 0 else { return false }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipe[0], 0)
        posix_spawn_file_actions_addclose(&actions, pipe[1])
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup(man), strdup("-l"), strdup("-"), nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, man, &actions, nil, argv, environ)
        close(pipe[0])
        guard spawned == 0 else {
            close(pipe[1])
            return false
        }
        // A pager that quits early closes the pipe: the rest is not wanted.
        let previous = signal(SIGPIPE, SIG_IGN)
        var bytes = Array(roff.utf8)
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeMutableBytes { write(pipe[1], $0.baseAddress! + written, $0.count - written) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            written += n
        }
        close(pipe[1])
        signal(SIGPIPE, previous)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return true
    }

    private static func findInPath(_ name: String) -> String? {
        let path = getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") where access("\(folder)/\(name)", X_OK) == 0 {
            return "\(folder)/\(name)"
        }
        return nil
    }
}
