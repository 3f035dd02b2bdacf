import AreasControl
import AreasSystem
import Testing
import AreasTestTraits

/// The table is what help, completions and the manual say; the parser must agree with it: each
/// command accepts exactly the options the table lists for it.
@Suite(.offThePool, .timeLimit(.minutes(5)))
struct CommandTableTests {
    /// Operands that make each command's line valid, and a value each option accepts.
    static let operands: [String: [String]] = [
        "near": ["37.5", "127"], "radius": ["37.5", "127", "100"], "bbox": ["37", "126", "38", "127"], "check": ["37.5", "127"],
        "along": ["37.5,127", "37.6,127.1"], "get": ["x"], "crowd": [], "stats": [], "sources": [], "health": [], "metrics": [], "refresh": [],
        "clusters": ["33", "124", "39", "132"], "where": ["37.5", "127"], "search": ["서울역"], "changes": [],
    ]
    /// Operands in place of those when the option under test gives the position itself.
    static let operandsWith: [String: [String: [String]]] = ["--at": ["near": [], "check": [], "radius": ["100"]]]
    /// Options a command cannot go without, given unless the option under test is the one.
    static let required: [String: [String]] = ["clusters": ["--zoom", "7"]]
    static let values: [String: String] = [
        "-k": "3", "--max-meters": "100", "--meters": "30", "--limit": "5", "--kind": "smoking", "--province": "서울",
        "--district": "용산구", "--output": "ids", "--format": "tsv", "--zoom": "7", "--previous": "37.5,127",
        "--near": "37.5,127", "--at": "서울역", "--since": "lq4x2-5", "--cursor": "lq4x2-5~yongsan:1f91",
    ]

    /// Commands areasctl answers itself or that send no one question: they take no command options.
    static let clientOnly: Set<String> = ["completion", "pipe", "version"]

    @Test(arguments: ["pipe", "version"], ["-k", "--json", "--format", "--province"])
    func theClientOnlyCommandsTakeNoCommandOptions(command: String, option: String) {
        #expect(ControlCommand.table.command(command)?.options.isEmpty == true)
        #expect(throws: UsageError.self) { _ = try ControlInvocation.parse([command, option] + (Self.values[option].map { [$0] } ?? [])) }
    }

    static var pairs: [(String, String)] {
        ControlCommand.table.commands.filter { !Self.clientOnly.contains($0.name) }.flatMap { command in
            ControlCommand.table.commandOptions.map { (command.name, $0.name) }
        }
    }

    @Test(arguments: pairs)
    func aCommandAcceptsExactlyTheOptionsTheTableGivesIt(command: String, option: String) throws {
        let table = ControlCommand.table
        let entry = try #require(table.command(command))
        let operands = try #require(Self.operandsWith[option]?[command] ?? Self.operands[command], "no operands for \(command) in this test")
        let needed = Self.required[command].flatMap { $0.first == option ? nil : $0 } ?? []
        let arguments = [command] + operands + needed + [option] + (Self.values[option].map { [$0] } ?? [])
        let reads = entry.options.contains(option)
        do {
            _ = try ControlCommand.parse(arguments)
            #expect(reads, "\(arguments) parsed, but the table does not give \(option) to \(command)")
        } catch {
            #expect(!reads, "\(arguments): \(error)")
            #expect(error == .wrongArguments("\(option) does not apply to \(command)"))
        }
    }

    @Test func everyOptionACommandListsIsInTheTable() {
        let table = ControlCommand.table
        for command in table.commands {
            for name in command.options {
                #expect(table.option(name) != nil, "\(command.name) lists \(name), which the table does not describe")
            }
        }
    }

    @Test(arguments: [
        (["--help"], "usage: areasctl [--socket PATH | --url URL]"),
        (["help"], "usage: areasctl [--socket PATH | --url URL]"),
        (["near", "--help"], "usage: areasctl near LAT LON [options]"),
        (["-s", "/x", "radius", "-h"], "usage: areasctl radius LAT LON METERS [options]"),
        (["completion", "--help"], "usage: areasctl completion SHELL"),
    ] as [([String], String)])
    func helpForTheWholeProgramOrOneCommand(arguments: [String], start: String) throws {
        guard case .text(let text) = try ControlInvocation.parse(arguments) else {
            Issue.record("\(arguments) is not answered with help")
            return
        }
        #expect(text.hasPrefix(start), "\(text)")
    }

    /// An option one command reads otherwise than another is described in each command's own
    /// words (`check --help` spoke of refresh's failures for `--quiet`).
    @Test func aCommandsHelpDescribesItsOptionsForIt() throws {
        guard case .text(let check) = try ControlInvocation.parse(["check", "--help"]),
              case .text(let refresh) = try ControlInvocation.parse(["refresh", "--help"]) else {
            Issue.record("no help")
            return
        }
        let quietInCheck = try #require(check.split(separator: "\n").first { $0.contains("--quiet") })
        let quietInRefresh = try #require(refresh.split(separator: "\n").first { $0.contains("--quiet") })
        #expect(quietInCheck.contains("the exit status says it") && !quietInCheck.contains("refresh") && !quietInCheck.contains("failures"), "\(quietInCheck)")
        #expect(quietInRefresh.contains("failed") && !quietInRefresh.contains("check") && !quietInRefresh.contains("exit status"), "\(quietInRefresh)")
    }

    @Test func completionNeedsAShellItKnows() throws {
        #expect(throws: UsageError.self) { try ControlInvocation.parse(["completion"]) }
        #expect(throws: UsageError.self) { try ControlInvocation.parse(["completion", "tcsh"]) }
        guard case .text(let script) = try ControlInvocation.parse(["completion", "bash"]) else {
            Issue.record("no script")
            return
        }
        #expect(script.contains("complete -F _areasctl areasctl"))
    }
}
