import AreasControl
import AreasServer
import AreasTestSupport
import Foundation
import Testing
import AreasTestTraits

/// The completion scripts and manual pages the binaries print, run by the real shells and
/// formatters: what a user pressing Tab would be offered, and whether man(1) reads the page.
@Suite(.offThePool, .tags(.endToEnd), .timeLimit(.minutes(5)))
struct CompletionAndManualTests {
    static func script(_ shell: String) throws -> String {
        let run = try Binaries.run("areasctl", ["completion", shell])
        #expect(run.status == 0 && run.stderr.isEmpty)
        let path = NSTemporaryDirectory() + "areasctl-completion-\(getpid()).\(shell)"
        try run.stdout.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static func tool(_ name: String) -> String? {
        ["/usr/bin/", "/bin/", "/usr/local/bin/"].map { $0 + name }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// The line being typed (the last word is the one completed) and what must be offered.
    static let cases: [(line: [String], offered: [String])] = [
        (["areasctl", ""], ControlCommand.table.commands.map(\.name)),
        (["areasctl", "ra"], ["radius"]),
        (["areasctl", "--socket", "/tmp/x", "he"], ["health"]),
        (["areasctl", "near", "37.5", "127", "--k"], ["--kind"]),
        (["areasctl", "near", "37.5", "127", "--kind", ""], ["all", "nonsmoking", "smoking"]),
        (["areasctl", "bbox", "37", "126", "38", "127", "--format", "t"], ["table", "tsv"]),
        (["areasctl", "refresh", "--f"], ["--force"]),
        (["areasctl", "completion", ""], ["bash", "fish", "zsh"]),
    ]

    @Test func bashOffersTheTablesWords() throws {
        let script = try Self.script("bash")
        defer { unlink(script) }
        for (line, offered) in Self.cases {
            let words = line.map { "'\($0)'" }.joined(separator: " ")
            let driver = "source \(script); COMP_WORDS=(\(words)); COMP_CWORD=\(line.count - 1); _areasctl; printf '%s\\n' \"${COMPREPLY[@]}\""
            let run = try Binaries.run("/bin/bash", ["--norc", "-c", driver])
            #expect(run.status == 0 && run.stderr.isEmpty, "\(run.stderr)")
            #expect(run.stdout.split(separator: "\n").map(String.init).sorted() == offered.sorted(), "\(line): \(run.stdout)")
        }
        // An option a command does not read is not offered for it.
        let run = try Binaries.run("/bin/bash", ["--norc", "-c", "source \(script); COMP_WORDS=(areasctl stats --); COMP_CWORD=2; _areasctl; echo \"${COMPREPLY[*]}\""])
        #expect(run.stdout.contains("--json") && !run.stdout.contains("--kind"), "\(run.stdout)")
    }

    @Test(.enabled(if: tool("fish") != nil, "fish is not installed (Tests/run.sh installs it)"))
    func fishOffersTheTablesWords() throws {
        let script = try Self.script("fish")
        defer { unlink(script) }
        for (line, offered) in Self.cases {
            let typed = line.joined(separator: " ")
            let run = try Binaries.run(Self.tool("fish")!, ["--no-config", "-c", "source \(script); complete -C'\(typed)'"])
            #expect(run.status == 0 && run.stderr.isEmpty, "\(run.stderr)")
            let words = run.stdout.split(separator: "\n").map { String($0.split(separator: "\t")[0]) }
            // fish adds the global options after a command's own when a dash is typed.
            #expect(Set(offered).isSubset(of: Set(words)), "\(typed): \(words)")
            if line.last?.hasPrefix("-") != true { #expect(words.sorted() == offered.sorted(), "\(typed): \(words)") }
        }
    }

    /// zsh's completion system needs a terminal to drive; the script is checked by zsh's parser
    /// and run with `_arguments` and `_describe` standing in, which record what they were given.
    @Test(.enabled(if: tool("zsh") != nil, "zsh is not installed (Tests/run.sh installs it)"))
    func zshParsesAndDescribesEachCommandsOptions() throws {
        let zsh = try #require(Self.tool("zsh"))
        let script = try Self.script("zsh")
        defer { unlink(script) }
        #expect(try Binaries.run(zsh, ["-n", script]).status == 0)
        let stubs = "_arguments() { print -r -- \"ARGUMENTS $*\"; [[ $1 == -C ]] && state=$TEST_STATE; return 0 }; _describe() { print -r -l -- \"${(@P)4}\" }"
        let commands = try Binaries.run(zsh, ["-f", "-c", "\(stubs); TEST_STATE=command; words=(areasctl); source \(script)"])
        for command in ControlCommand.table.commands {
            #expect(commands.stdout.contains("\n\(command.name):"), "\(command.name) not described: \(commands.stdout)")
        }
        let near = try Binaries.run(zsh, ["-f", "-c", "\(stubs); TEST_STATE=arguments; words=(near 37 127); source \(script)"])
        #expect(near.stdout.contains("--kind[smoking areas, non-smoking zones, or both (default)]:kind:(all smoking nonsmoking)"), "\(near.stdout)")
        #expect(!near.stdout.contains("--force"))
    }

    /// On a terminal (`script` gives one) `--manual` is the page `man` formats; piped, the roff.
    @Test(.enabled(if: tool("man") != nil && tool("script") != nil, "man or script is not installed (Tests/run.sh installs man-db and util-linux)"),
          arguments: ["areasctl", "areasd"])
    func theManualOnATerminalIsFormatted(binary: String) throws {
        let command = "\(Binaries.path(binary)) --manual"
        let shown = try Binaries.run(try #require(Self.tool("script")), ["-qec", command, "/dev/null"], environment: ["MANPAGER": "cat", "COLUMNS": "80"])
        #expect(shown.status == 0)
        #expect(shown.stdout.contains("\(binary.uppercased())(") && !shown.stdout.contains(".TH "), "\(shown.stdout.prefix(300))")
        let piped = try Binaries.run(binary, ["--manual"])
        #expect(piped.stdout.hasPrefix(".TH \(binary.uppercased())"))
    }

    @Test(arguments: ["areasctl", "areasd"])
    func manualPagesReadCleanly(binary: String) throws {
        let page = try Binaries.run(binary, ["--manual"])
        #expect(page.status == 0 && page.stderr.isEmpty)
        let path = NSTemporaryDirectory() + "\(binary)-\(getpid()).man"
        try page.stdout.write(toFile: path, atomically: true, encoding: .utf8)
        defer { unlink(path) }
        // groff with every warning on: nothing it cannot read.
        let groffPath = try #require(Self.tool("groff"), "groff is not installed (Tests/run.sh installs groff-base)")
        let groff = try Binaries.run(groffPath, ["-man", "-Tutf8", "-P-cbou", "-ww", path])
        #expect(groff.status == 0 && groff.stderr.isEmpty, "\(groff.stderr)")
        let table = binary == "areasd" ? Daemon.table : ControlCommand.table
        let rendered = groff.stdout.replacingOccurrences(of: "\u{2010}", with: "-")
        for name in table.commands.map(\.name) + (table.globalOptions + table.commandOptions).flatMap(\.names) {
            #expect(rendered.contains(name), "\(binary)'s manual does not mention \(name)")
        }
        #expect(rendered.contains("서울") || binary == "areasd")
    }

    @Test(.enabled(if: tool("mandoc") != nil, "needs mandoc (Tests/run.sh installs it)"), arguments: ["areasctl", "areasd"])
    func manualPagesPassMandocLint(binary: String) throws {
        let page = try Binaries.run(binary, ["--manual"])
        let path = NSTemporaryDirectory() + "\(binary)-lint-\(getpid()).man"
        try page.stdout.write(toFile: path, atomically: true, encoding: .utf8)
        defer { unlink(path) }
        let lint = try Binaries.run(try #require(Self.tool("mandoc")), ["-Tlint", "-Wwarning", path])
        #expect(lint.status == 0, "\(lint.stdout)\(lint.stderr)")
    }
}
