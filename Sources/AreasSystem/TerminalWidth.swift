import Glibc

/// How wide a table areasctl prints may be.
package enum TerminalWidth {
    /// `$COLUMNS` when it is a number (as `ls` and `ps` read it), else the width of the terminal
    /// standard output is, else nil: a pipe or a file gets whole lines, for `grep` and `cut`.
    package static func current(environment: [String: String]) -> Int? {
        if let text = environment["COLUMNS"], let columns = Int(text), columns > 0 { return columns }
        var size = winsize()
        guard isatty(STDOUT_FILENO) == 1, ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }
}
