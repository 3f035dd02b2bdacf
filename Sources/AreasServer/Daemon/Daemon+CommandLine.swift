import AreasCore
import AreasSystem

extension Daemon {
    /// areasd's options: `--help` and the manual page are written from this table.
    package static let table = CommandLineTable(
        program: "areasd",
        section: 8,
        purpose: "serve South Korea's smoking areas and non-smoking zones over a Unix socket",
        synopsis: "[--config PATH] [--socket PATH] [--snapshot PATH] [--log-level LEVEL] [--check-config | --dry-run] | --discover PATH|URL|--dataset ID [--kind KIND] [--name NAME] [--positions-template]",
        description: [
            "areasd fetches the public smoking-area and non-smoking-zone data its config names (paged XML and JSON APIs, CSV and JSON files, with a geocoder for rows that have only an address), validates and merges it, keeps every area in an R-tree and answers near, radius, bbox, check, along and get questions over a Unix socket, one JSON line per request (areasctl(1) is the client), and, when the config has an http key, the same answers over HTTP/1.1 for a proxy such as nginx.",
            "It keeps the last good data in a snapshot file and serves it at once after a restart; a refresh replaces the data as a whole or not at all. Run by systemd (areasd.service and areasd.socket), it reports READY=1 once it has data, reloads its config on SIGHUP and stops cleanly on SIGTERM.",
        ],
        globalOptions: [
            .init(["--config", "-c"], value: "PATH", "the config file (default /etc/areasd/areasd.json when installed, else config/areasd.json)"),
            .init(["--socket", "-s"], value: "PATH", "the socket to listen on, over the config's"),
            .init(["--snapshot"], value: "PATH", "the snapshot file, over the config's"),
            .init(["--log-level"], value: "LEVEL", choices: ["error", "warning", "info", "debug"], "the least severe log lines written (debug: one line per request)"),
            .init(["--check-config"], "check the config, the files and the environment it names, and exit"),
            .init(["--dry-run"], "fetch, validate and merge every source as a refresh would, print the report, and exit: no snapshot, socket or geocoder memory of a running daemon is touched (exit 1 when a source fails)"),
            .init(["--discover"], value: "PATH|URL", "read a data file never seen before (CSV or JSON rows; a URL: one GET) and print the source that serves it, as one JSON object for the config's sources; the report goes to stderr"),
            .init(["--dataset"], value: "ID", "with --discover, instead of a file: a portal data set by its id (data.go.kr/data/ID/...), read from its newest upload with DATA_GO_KR_KEY"),
            .init(["--kind"], value: "KIND", choices: ["smoking", "nonsmoking"], "with --discover: what the file lists, when its own words do not say"),
            .init(["--name"], value: "NAME", "with --discover: the source's name (default: the file's name)"),
            .init(["--positions-template"], "with --discover: print instead the positions file (CSV: source, name, query, latitude, longitude) for the rows without a usable position, to fill in by hand and name in the config's positions (no geocoder needed)"),
            .init(["--help", "-h"], "print usage and exit"),
            .init(["--version"], "print the version and exit"),
            .init(["--manual"], "print this manual page in man(7) format and exit"),
        ],
        exitStatus: [
            (0, "stopped by SIGTERM or SIGINT after the work in hand finished; or --check-config found nothing wrong; --dry-run: every source updated; --discover: the printed source is usable"),
            (1, "the socket could not be made or the server could not start; --dry-run: a source failed or would be held back; --discover: the file cannot be read, or the source found would serve nothing (the report says what is missing)"),
            (2, "bad usage"),
            (78, "a configuration error (EX_CONFIG): one line per problem naming the file and key"),
        ],
        environment: [
            ("AREAS_SOCKET", "the socket, when neither --socket nor the config names one"),
            ("RUNTIME_DIRECTORY, STATE_DIRECTORY", "set by systemd: the socket's and the snapshot's folders"),
            ("NOTIFY_SOCKET, WATCHDOG_USEC, LISTEN_FDS", "set by systemd: readiness, watchdog and socket activation"),
            ("DATA_GO_KR_KEY", "the upstream service key, or whichever variable a source's serviceKeyEnv names"),
        ],
        examples: [
            ("areasd --config config/areasd.json", "serve the bundled samples, no network needed"),
            ("areasd --check-config --config /etc/areasd/areasd.json", "check a config before a reload"),
            ("areasd --discover districts/mapo-smoking.csv --name mapo", "write the source for a district's file"),
            ("areasd --dry-run --config /etc/areasd/areasd.json", "try a changed config without touching the running daemon"),
        ],
        seeAlso: ["areasctl(1)", "systemd.service(5)", "systemd.socket(5)"])
}
