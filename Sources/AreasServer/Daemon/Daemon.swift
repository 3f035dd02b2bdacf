import AreasCore
import AreasIngest
import AreasSystem
import Foundation
import Synchronization

/// areasd from start to exit: read the config, load the snapshot, listen, refresh on schedule,
/// and stop cleanly on a signal. The executable is a thin `main` over this.
package final class Daemon: Sendable {
    package struct Options: Sendable {
        package var configPath = DefaultPaths.config(environment: ProcessInfo.processInfo.environment)
        package var socketPath: String?
        package var snapshotPath: String?
        package var logLevel: Logger.Level?
        /// Check the config (and the files and environment it names), report, and exit.
        package var checkConfigOnly = false
        /// Refresh as configured, report, serve and keep nothing.
        package var dryRun = false
        /// A file or URL to write a source for, and what is known of it.
        package var discover: String?
        /// `--discover --dataset ID`: a portal data set by its id instead of a file.
        package var discoverDataset: String?
        package var discoverKind: AreaKind?
        package var discoverName: String?
        /// With `discover`: print the positions file to fill in, not the source.
        package var positionsTemplate = false
        package var help = false
        package var version = false
        package var manual = false
        package init() {}
    }

    /// Descriptors kept back from connections for the daemon's own files and requests.
    static let reservedDescriptors = 64

    package static func parseOptions(_ arguments: [String]) throws(UsageError) -> Options {
        var list = ArgumentList(arguments)
        var options = Options()
        options.help = list.flag("--help", "-h")
        options.version = list.flag("--version")
        options.manual = list.flag("--manual")
        options.checkConfigOnly = list.flag("--check-config")
        options.dryRun = list.flag("--dry-run")
        if let dataset = try list.value("--dataset") {
            guard list.flag("--discover") else { throw .wrongArguments("--dataset goes with --discover: areasd --discover --dataset ID") }
            options.discoverDataset = dataset
        } else {
            options.discover = try list.value("--discover")
        }
        if let kind = try list.value("--kind") {
            guard let parsed = AreaKind(rawValue: kind) else { throw .invalidValue("--kind", kind) }
            options.discoverKind = parsed
        }
        options.discoverName = try list.value("--name")
        options.positionsTemplate = list.flag("--positions-template")
        if options.discover == nil, options.discoverDataset == nil, options.discoverKind != nil || options.discoverName != nil || options.positionsTemplate {
            throw .wrongArguments("--kind, --name and --positions-template go with --discover")
        }
        if let name = options.discoverName, name.isEmpty || !name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." }) {
            throw .invalidValue("--name", name)
        }
        if let path = try list.value("--config", "-c") { options.configPath = path }
        options.socketPath = try list.value("--socket", "-s")
        options.snapshotPath = try list.value("--snapshot")
        if let level = try list.value("--log-level") {
            guard let parsed = Logger.Level(name: level) else { throw .invalidValue("--log-level", level) }
            options.logLevel = parsed
        }
        let rest = try list.positionals()
        guard rest.isEmpty else { throw .wrongArguments("unexpected argument '\(rest[0])'") }
        return options
    }

    let options: Options
    let environment: [String: String]
    let logger: Logger
    /// What a started daemon runs, set up by `start` and then changed only on `queue` (signals,
    /// the refresh timer).
    struct Running {
        var service: AreaService?
        var server: ConnectionServer?
        var socketPath = ""
        /// Descriptors this process may open, once raised to the hard limit at start.
        var descriptorsAvailable: Int?
        var refreshTimer: (any DispatchSourceTimer)?
        /// The socket files this process bound, by identity: only those files are removed at exit.
        var boundSockets: [(path: String, identity: (device: UInt64, inode: UInt64), madeFolder: String?)] = []
        /// The signal sources and timers, kept for the daemon's life.
        var sources: [any DispatchSourceProtocol] = []
    }
    let running = LockedValue(Running())
    var service: AreaService? { running.withLock { $0.service } }
    var server: ConnectionServer? { running.withLock { $0.server } }
    private let queue = DispatchQueue(label: "areasd.control")
    let notifier: SystemdNotifier
    private let readySent = Atomic<Bool>(false)

    /// Run by hand (not by systemd, which sets `INVOCATION_ID`) on the installed service's
    /// socket, as root is by default: said, with the way to run beside the service.
    package static func sharedSocketNote(_ socketPath: String, environment: [String: String]) -> String {
        socketPath == DefaultPaths.systemSocket && environment["INVOCATION_ID"] == nil
            ? "; as root, the installed service's socket: --socket PATH runs beside it" : ""
    }

    package init(options: Options, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.options = options
        self.environment = environment
        self.logger = Logger(threshold: options.logLevel ?? .info, environment: environment)
        self.notifier = SystemdNotifier(environment: environment)
    }

    /// "serving 2853 areas, data 5 min old": the systemd status line. `refreshEnded` when a
    /// refresh has just handed over `state` (the service still counts it as running).
    func status(_ state: ServingState, refreshEnded: Bool = false) -> String {
        guard state.hasData else {
            guard !refreshEnded, let service else { return AreaService.noDataReason(state, refreshing: nil) }
            return service.noDataReason(state)
        }
        let age = state.dataAge(now: Date().timeIntervalSince1970).map { MeasurementText.duration($0) } ?? "unknown"
        return "serving \(state.index.count) areas, data \(age) old"
    }

    /// READY=1 once there is something to serve: at once from a snapshot, else when the first
    /// refresh ends (served or failed), or after `startReadySeconds` without it, whichever
    /// comes first. So `systemctl enable --now` returns to a daemon that answers its next
    /// question, and a start without network still returns within the bound (its answers say
    /// `unavailable` and why, and a first fetch that fails is no failed start that systemd
    /// would restart into fetching again). STATUS= every time.
    private func announce(_ state: ServingState, refreshEnded: Bool = false) {
        let status = status(state, refreshEnded: refreshEnded)
        if !readySent.exchange(true, ordering: .relaxed) {
            if !state.hasData { logger.info("ready without data: \(status)") }
            notifier.ready(status: status)
        } else {
            notifier.status(status)
        }
    }

    /// The config `--config` names and, a line each, what refuses it: that it does not load,
    /// or a column its file lacks, and for `--check-config` an unset key variable too (a start
    /// goes on without the key, as without the network). No config when it does not load.
    func loadConfig(keysRequired: Bool = false) -> (config: AreasConfig?, problems: [String]) {
        do {
            let config = try AreasConfig.load(path: options.configPath)
            let check = ConfigCheck(config: config, environment: environment)
            return (config, (keysRequired ? check.problems() : check.problemsBesidesKeys()).map { "areasd: \($0)" })
        } catch {
            return (nil, ([error] + error.others).map { "areasd: \($0.line)" })
        }
    }

    /// What a start or reload without a key variable says: the daemon serves, and what needs
    /// the key fails naming it.
    func warnOfMissingKeys(_ config: AreasConfig) {
        for missing in ConfigCheck(config: config, environment: environment).missingKeys() {
            logger.warning("\(missing); what needs it fails and says so until it is set (the installed service reads /etc/areasd/areasd.env) and the daemon restarted")
        }
    }

    /// Runs `work` to its end and returns what it gave (nil only if it never finished): for the
    /// one-shot commands, which run on the main thread before there is a dispatch loop.
    package static func waitFor<Value: Sendable>(_ work: @escaping @Sendable () async -> Value) -> Value? {
        let result = LockedValue<Value?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            let value = await work()
            result.withLock { $0 = value }
            done.signal()
        }
        done.wait()
        return result.withLock { $0 }
    }

    /// `--check-config`: the config, the environment and the files it names, each problem on
    /// a line; exit 0 when there is none, 78 (EX_CONFIG) otherwise. Files that cannot be read
    /// now are warnings, as they are to a running daemon.
    package func checkConfig() -> (message: String, code: Int32) {
        let (loaded, problems) = loadConfig(keysRequired: true)
        guard let config = loaded else { return (problems.joined(separator: "\n"), 78) }
        // A file that cannot be read now stops neither the start nor a reload (the daemon runs
        // without it, as each warning says), so it is a warning here too, not an error.
        let warnings = ConfigCheck(config: config, environment: environment).unreadableFiles()
            .map { "areasd: warning: \($0.problem) (\($0.meanwhile))" }
        guard problems.isEmpty else { return ((problems + warnings).joined(separator: "\n"), 78) }
        let valid = "areasd: \(options.configPath): valid (\(config.sources.count) source\(config.sources.count == 1 ? "" : "s"))"
        return (([valid + (warnings.isEmpty ? "" : ", \(warnings.count) warning\(warnings.count == 1 ? "" : "s")")] + warnings).joined(separator: "\n"), 0)
    }

    /// Starts everything and returns; the caller then parks the main thread (`dispatchMain`).
    /// Returns a message and exit code when it cannot start.
    package func start() -> (message: String, code: Int32)? {
        // A full disk or a file-size limit must fail the write, not kill the daemon.
        Signals.ignore(SIGXFSZ)
        Signals.ignore(SIGPIPE)
        // SIGTERM, SIGINT and SIGHUP are handled before anything can be answered: a stop asked
        // for as soon as the first answer came must stop the daemon, not be lost (each handler
        // does what it can with what has started so far).
        installSignalHandlers()
        let (loaded, problems) = loadConfig()
        guard let config = loaded, problems.isEmpty else { return (problems.joined(separator: "\n"), 78) }  // EX_CONFIG
        if options.logLevel == nil, let name = config.logLevel, let level = Logger.Level(name: name) {
            logger.threshold = level
        }
        for unreadable in ConfigCheck(config: config, environment: environment).unreadableFiles() {
            logger.warning("\(unreadable)")
        }
        warnOfMissingKeys(config)
        let socketPath = options.socketPath ?? config.socket ?? DefaultPaths.socket(environment: environment)
        let snapshotPath = options.snapshotPath ?? config.snapshot ?? DefaultPaths.snapshot(environment: environment)

        // Served from a mapping from here on: a file cut short under it is said, not a silent crash.
        Signals.exitOnBusError(message: "areasd: bus error reading the mapped snapshot: the file was cut short or rewritten in place"
                               + " while served (replace a snapshot by renaming a new file over it, never by writing into it); exiting to be restarted")
        // The last good data first, so the socket answers as soon as it exists.
        // The corrections as the file says them now; when it cannot be read, the snapshot's stay.
        let overrides: [AreaOverride]? = config.overrides == nil ? [] : config.overrides.flatMap { try? OverridesFile(path: $0, bounds: config.bounds).lines }
        let state = loadSnapshot(SnapshotStore(path: snapshotPath, footprint: config.footprintPolicy, merge: config.merge,
                                               overrides: config.follow != nil ? nil : overrides),
                                 sources: config.follow != nil ? [AreaService.followSourceName] : config.sources.map(\.name))
        FreeMemory.release()
        FreeMemory.mapLargeBlocksSeparately()
        FreeMemory.limitArenas(to: 2)
        let service = AreaService(config: config, state: state, snapshotPath: snapshotPath, logger: logger, environment: environment,
                                  overrides: overrides, onRefresh: { [weak self] state in self?.announce(state, refreshEnded: true) })
        running.withLock { $0.service = service }

        let listener: FileDescriptor
        let listening: String
        do {
            (listener, listening) = try listen(on: socketPath, config: config)
        } catch {
            return ("areasd: \(error)", 1)
        }
        let available = DescriptorLimit.raiseToHardLimit()
        running.withLock { $0.descriptorsAvailable = available }
        let limits = serverLimits(for: config)
        let http: [ConnectionServer.Listener]
        do {
            http = try httpListeners(config.http, limits: limits)
        } catch {
            return ("areasd: cannot serve HTTP: \(error)", 1)
        }
        let server: ConnectionServer
        do {
            server = try ConnectionServer(listeners: [ConnectionServer.Listener(listener, .lines)] + http, service: service, limits: limits)
            running.withLock { $0.server = server }
            try server.start()
        } catch {
            return ("areasd: cannot start the socket server: \(error)", 1)
        }
        logger.info("listening on \(listening) (\(state.index.count) areas, pid \(CurrentProcess.id)\(Self.sharedSocketNote(socketPath, environment: environment)))")
        service.install(ServedRegions.loading)
        readRegions(config, into: service)
        readCrowdPlaces(config, into: service)

        scheduleRefreshes(interval: config.refreshIntervalSeconds)
        if state.hasData {
            announce(state)
        } else {
            // The first refresh has been started by the timer above: READY when it ends, or
            // past the bound.
            notifier.status(status(state))
            queue.asyncAfter(deadline: .now() + config.startReadySeconds) { [weak self] in
                guard let self, let service = self.service else { return }
                self.announce(service.state)
            }
        }
        if let interval = notifier.watchdogInterval {
            running.withLock { [queue, notifier] running in
                let timer = DispatchSource.makeTimerSource(queue: queue)
                timer.schedule(deadline: .now(), repeating: interval)
                timer.setEventHandler { notifier.watchdog() }
                timer.resume()
                running.sources.append(timer)
            }
        }
        return nil
    }

    /// The data set in the snapshot at `path`, or an empty one when there is none or it is
    /// unreadable (the first refresh fills in).
    private func loadSnapshot(_ store: SnapshotStore, sources configured: [String]) -> ServingState {
        var notes: [SnapshotStore.Note] = []
        let loaded = store.load(notes: &notes)
        logger.log(notes)
        return ServingState(loaded ?? .empty(footprint: store.footprint ?? .standard), hasData: loaded != nil,
                            lastReport: loaded != nil ? store.lastReport() : nil, snapshotPath: store.path,
                            builtAt: Date().timeIntervalSince1970, history: store.history(configured: configured), inFile: loaded != nil)
    }

    /// The socket server's limits for `config`. Each connection holds a descriptor, and the
    /// daemon needs some of its own (listener, snapshot, HTTP to upstream, the notify socket):
    /// past the limit, accept fails and a new client hangs instead of being told it is busy.
    func serverLimits(for config: AreasConfig) -> ConnectionServer.Limits {
        var limits = ConnectionServer.Limits()
        limits.maxConnections = config.maxConnections
        if let available = running.withLock({ $0.descriptorsAvailable }), config.maxConnections > available - Self.reservedDescriptors {
            limits.maxConnections = Swift.max(1, available - Self.reservedDescriptors)
            logger.warning("maxConnections \(config.maxConnections) is more than the descriptor limit (\(available)) allows; serving at most \(limits.maxConnections) connections (raise LimitNOFILE or ulimit -n)")
        }
        limits.idleTimeoutSeconds = config.idleTimeoutSeconds
        limits.requestTimeoutSeconds = config.requestTimeoutSeconds
        limits.maxOutputBytes = config.maxOutputBytes
        return limits
    }

    /// The socket to answer on, and how the log names it.
    private func listen(on socketPath: String, config: AreasConfig) throws -> (FileDescriptor, String) {
        // Socket activation: systemd bound the socket and passes it as fd 3.
        if environment["LISTEN_PID"].flatMap({ Int32($0) }) == CurrentProcess.id, environment["LISTEN_FDS"] == "1" {
            let fd = FileDescriptor(rawValue: 3)
            try fd.setCloseOnExec()
            return (fd, "fd 3 (socket activation)")
        }
        return (try bindUnixSocket(socketPath, mode: config.socketMode, group: config.socketGroup, groupKey: "socketGroup"), socketPath)
    }

    private func installSignalHandlers() {
        for number in [SIGTERM, SIGINT, SIGHUP] {
            Signals.ignore(number)
            running.withLock { [self] running in
                let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
                source.setEventHandler { [self] in
                    if number == SIGHUP { reload() } else { shutdown(signal: number) }
                }
                source.resume()
                running.sources.append(source)
            }
        }
    }

    private func scheduleRefreshes(interval: Double) {
        guard let service else { return }
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now(), repeating: Self.timerSeconds(service.config))
        var lastAttempt = 0.0
        var lastFollow = 0.0
        // Attempts made while there is nothing to serve: each failed one doubles the pause
        // before the next (1, 2, 4 ... minutes, up to the interval), so a host without its key
        // or network does not spend the day's quota on a first fetch that cannot work.
        var attemptsWithoutData = 0
        timer.setEventHandler {
            // Read each time: SIGHUP may have changed it.
            let interval = service.config.refreshIntervalSeconds
            let now = Date().timeIntervalSince1970
            // A follower asks its leader every intervalSeconds, whatever its data's age.
            if let follow = service.config.follow {
                if now - lastFollow >= follow.intervalSeconds && !service.isRefreshing {
                    lastFollow = now
                    _ = service.startRefresh(force: false)
                }
                return
            }
            let state = service.state
            let age = state.dataAge(now: now) ?? .infinity
            // A failed attempt is retried after a tenth of the interval; with nothing to serve
            // yet (no snapshot, first fetch failed), after a minute, then twice as long each time.
            if state.hasData { attemptsWithoutData = 0 }
            let retry = state.hasData ? Swift.min(interval, Swift.max(60, interval / 10)) : Self.retryWithoutData(afterAttempts: attemptsWithoutData, interval: interval)
            // A second's slack: the timer's ticks come a pause apart, not a pause and a moment.
            if age >= interval && !service.isRefreshing && now - lastAttempt >= retry - 1 {
                lastAttempt = now
                if !state.hasData {
                    attemptsWithoutData += 1
                    if attemptsWithoutData > 1 {
                        self.logger.info("no data yet: refresh attempt \(attemptsWithoutData); if it fails, the next in \(MeasurementText.duration(Self.retryWithoutData(afterAttempts: attemptsWithoutData, interval: interval)))")
                    }
                }
                service.startRefresh(force: false)
            }
        }
        timer.resume()
        running.withLock {
            $0.refreshTimer = timer
            $0.sources.append(timer)
        }
    }

    /// How often to look whether the data is older than the interval: often, but refreshing
    /// only when it is.
    static func refreshCheckSeconds(_ interval: Double) -> Double { Swift.min(60, Swift.max(1, interval / 10)) }

    /// The pause after `attempts` attempts that found nothing to serve: a minute, doubled after
    /// each, at most the refresh interval.
    static func retryWithoutData(afterAttempts attempts: Int, interval: Double) -> Double {
        Swift.min(interval, 60 * Double(1 << Swift.min(Swift.max(attempts - 1, 0), 10)))
    }

    /// How often the timer looks: a follower's interval may be shorter than its data's.
    static func timerSeconds(_ config: AreasConfig) -> Double {
        Swift.min(refreshCheckSeconds(config.refreshIntervalSeconds), config.follow.map { Swift.max(0.5, $0.intervalSeconds / 4) } ?? .infinity)
    }


    private func shutdown(signal number: Int32) {
        logger.info("\(number == SIGTERM ? "SIGTERM" : "SIGINT"): stopping; answering requests already read")
        notifier.stopping()
        let clean = server?.stop(timeout: 10) ?? true
        for bound in running.withLock({ $0.boundSockets }) { SocketPath.remove(bound.path, ifStill: bound.identity, folder: bound.madeFolder) }
        logger.info(clean ? "stopped" : "stopped; some connections did not finish in 10 s")
        exit(0)
    }
}
