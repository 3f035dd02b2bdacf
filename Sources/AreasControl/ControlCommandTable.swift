import AreasCore
import AreasProtocol
import AreasSystem

extension ControlCommand {
    /// areasctl's commands and options: the parser, `--help`, `COMMAND --help`, the completions
    /// and the manual page all read this one table.
    package static let table = CommandLineTable(
        program: "areasctl",
        section: 1,
        purpose: "ask areasd where people may and may not smoke",
        synopsis: "[--socket PATH | --url URL] [--timeout SECONDS] COMMAND [options]",
        description: [
            "areasctl asks a running areasd (the smoking-area and non-smoking-zone daemon) one question over its Unix socket and prints the answer: a table for people, or JSON, GeoJSON, tab-separated or NDJSON lines for scripts. Notes such as a truncated answer go to standard error.",
            "The socket is --socket PATH, else $AREAS_SOCKET, else $RUNTIME_DIRECTORY/areasd.sock, else the installed daemon's /run/areasd/areasd.sock when it is there (for every user: members of its group may ask), else the rule areasd follows when it picks its own: /run/areasd/areasd.sock as root, else $XDG_RUNTIME_DIR/areasd.sock, else /tmp/areasd-$UID/areasd.sock.",
        ],
        globalOptions: [
            .init(["--socket", "-s"], value: "PATH", "the daemon's socket"),
            .init(["--url"], value: "URL", "ask a daemon's HTTP front door instead (http://HOST:PORT as its http.listen; not for refresh)"),
            .init(["--timeout"], value: "SECONDS", "give up when the daemon has not answered in this long (default 5; 600 for refresh)"),
            .init(["--help", "-h"], "print usage (after a command: that command's) and exit"),
            .init(["--version"], "print the version and exit"),
            .init(["--manual"], "print this manual page in man(7) format and exit"),
        ],
        commands: RequestOperation.allCases.map(command(for:)) + [
            .init("pipe", "send each request line read from standard input (the wire protocol's JSON) over one connection and print each answer line; exit 1 if any answer is an error"),
            .init("version", "this areasctl's version and the running daemon's"),
            .init("completion", "SHELL", operandChoices: CommandLineTable.Shell.allCases.map(\.rawValue),
                  "print the completion script for bash, zsh or fish"),
        ],
        commandOptions: FieldOption.all.map(\.option) + [
            .init(["--format"], value: "FORMAT", choices: Format.allCases.map(\.rawValue),
                  "a table; the daemon's JSON; GeoJSON; headerless tab-separated lines; CSV with a header row; one JSON object an area a line"),
            .init(["--json"], "the daemon's answer as it sent it (--format json)"),
            .init(["--geojson"], "a GeoJSON FeatureCollection with every area's position (--format geojson)"),
            .init(["--quiet", "-q"], "print only failures (refresh); print nothing, only the exit status (check)",
                  byCommand: ["refresh": "print only the sources that failed or were held back",
                              "check": "print nothing: the exit status says it (0 outside every non-smoking zone, 1 inside one)"]),
        ],
        exitStatus: [
            (0, "success"),
            (1, "an error answer, an unhealthy health, a refresh with a failed or held-back source, or a check inside a non-smoking zone (check exits 0 when the point is in none)"),
            (2, "bad usage: an unknown command or option, an option the command does not read, a value out of range"),
            (3, "no answer: no daemon, the daemon busy, or no answer within --timeout"),
            (77, "permission denied (refresh asked by a user who may not)"),
        ],
        environment: [
            ("AREAS_SOCKET", "the socket, when --socket is not given"),
            ("COLUMNS", "the width tables fit in, when standard output is not a terminal that says"),
        ],
        examples: [
            ("areasctl near 37.53 126.97 -k 3", "the three nearest areas to a point in Yongsan"),
            ("areasctl check 37.5289 126.968", "may I smoke here?"),
            ("areasctl check -q 37.5289 126.968 && echo allowed", "the same for a script: exit 0 outside every non-smoking zone"),
            ("areasctl radius 37.55 126.97 500 --kind smoking --format geojson > nearby.geojson", "smoking areas within 500 m, for a map"),
            ("areasctl health || echo degraded", "for a probe or a cron job"),
            ("areasctl pipe < requests.jsonl > answers.jsonl", "many questions over one connection, as redis-cli --pipe"),
            ("source <(areasctl completion bash)", "completion in this shell"),
        ],
        seeAlso: ["areasd(8)"])

    /// The options each command reads (besides the global ones), from the table.
    static let options: [String: Set<String>] = Dictionary(uniqueKeysWithValues: table.commands.map { ($0.name, Set($0.options)) })
}
