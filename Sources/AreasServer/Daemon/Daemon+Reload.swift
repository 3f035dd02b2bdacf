import AreasCore
import AreasIngest
import AreasSystem
import Foundation

/// SIGHUP, and what is read in the background at start and at each reload: the
/// administrative map and the crowd's hotspots.
extension Daemon {
    /// SIGHUP: read the config again and apply every key to what follows (sources, limits, log
    /// level, refresh interval, results, aliases); where the socket and the snapshot live can
    /// only change with a restart, and the log line says so when they differ. The data is
    /// refreshed only when what it is made from changed.
    func reload() {
        guard let service else { return }
        notifier.reloading()
        do {
            let config = try AreasConfig.load(path: options.configPath)
            let problems = ConfigCheck(config: config, environment: environment).problemsBesidesKeys()
            guard problems.isEmpty else {
                logger.error("SIGHUP: \(problems.map(\.description).joined(separator: "; ")); keeping the running configuration")
                notifier.notify("READY=1\nSTATUS=\(status(service.state))")
                return
            }
            let before = service.config
            warnOfMissingKeys(config)
            service.replace(config: config)
            readRegions(config, into: service, judgingDistricts: true)
            if config.crowd != before.crowd { readCrowdPlaces(config, into: service) }
            server?.update(serverLimits(for: config))
            if options.logLevel == nil { logger.threshold = config.logLevel.flatMap(Logger.Level.init(name:)) ?? .info }
            if Self.timerSeconds(config) != Self.timerSeconds(before) {
                let check = Self.timerSeconds(config)
                running.withLock { $0.refreshTimer?.schedule(deadline: .now() + check, repeating: check) }
            }
            let restartKeys = Self.keysNeedingRestart(from: before, to: config)
            let kept = restartKeys.isEmpty ? "" : "; \(restartKeys.joined(separator: ", ")) changed but \(restartKeys.count == 1 ? "takes" : "take") effect only after a restart"
            // A refresh only when the data would come out otherwise: changed sources or merging,
            // or a local file edited since the last refresh (a district file downloaded again,
            // corrections added). A changed log level costs no upstream request.
            let since = service.state.lastReport?.startedAt ?? service.state.builtAt
            let edited = config.localDataFiles.filter { path in
                ((try? FileSystem.status(of: path))??.modifiedNanoseconds).map { Double($0) / 1e9 > since } ?? false
            }
            if !config.makesTheSameData(as: before) || !edited.isEmpty {
                let why = edited.isEmpty ? "the data's inputs changed" : "edited since the last refresh: " + edited.joined(separator: ", ")
                logger.info("SIGHUP: reloaded \(options.configPath) (\(config.sources.count) sources), every other key applied\(kept); refreshing (\(why))")
                service.startRefresh(force: false)
            } else {
                logger.info("SIGHUP: reloaded \(options.configPath) (\(config.sources.count) sources), every other key applied\(kept); nothing the data is made from changed, so no refresh")
            }
        } catch {
            logger.error("SIGHUP: \(error); keeping the running configuration")
        }
        notifier.notify("READY=1\nSTATUS=\(status(service.state))")
    }

    /// Reads the administrative map off the main thread (answers never wait for it) and serves
    /// it; without one, region answers say why and `health` warns. A refresh that starts
    /// meanwhile waits for it, so the first refresh checks every record's district.
    /// With `judgingDistricts` (a SIGHUP), a map read where there was none, or another one,
    /// starts a refresh at once, so every record's district is judged against it now rather
    /// than at the next scheduled refresh.
    func readRegions(_ config: AreasConfig, into service: AreaService, judgingDistricts: Bool = false) {
        let logger = self.logger
        let before = service.servedRegions.current.map
        DispatchQueue.global(qos: .utility).async {
            switch service.store.regions(from: config.regions.folder) {
            case .map(let map, let note):
                service.install(.map(map))
                logger.info("regions: \(map[.province].count) provinces, \(map[.district].count) districts, \(map[.town].count) towns, \(note)")
                if judgingDistricts, before.map({ !$0.isSameMap(as: map) }) ?? true, service.state.hasData {
                    logger.info("regions: a new administrative map; refreshing so every record's district is judged against it")
                    service.startRefresh(force: false)
                }
            case .unavailable(let reason):
                service.install(.unavailable(reason: reason))
                logger.warning("regions: \(ServedRegions.unavailable(reason: reason).problem ?? reason); serving without them (region answers say unavailable)")
            }
            FreeMemory.release()
        }
    }

    /// Reads the crowd hotspots off the main thread and starts watching them; without `crowd`,
    /// or with a places file that cannot be used, no answer carries a crowd level.
    func readCrowdPlaces(_ config: AreasConfig, into service: AreaService) {
        guard let crowd = config.crowd else { return service.install(crowd: nil) }
        let logger = self.logger
        let environment = self.environment
        DispatchQueue.global(qos: .utility).async {
            do throws(CrowdHotspots.Failure) {
                let hotspots = try CrowdHotspots(path: crowd.places)
                service.install(crowd: CrowdWatch(config: crowd, hotspots: hotspots, environment: environment, quota: service.quota,
                                                  logger: logger) { [weak service] in service?.crowdChanged() })
                let source = crowd.recordedAnswers.map { "recorded answers in \($0)" } ?? "the city at \(crowd.url)"
                logger.info("crowd: \(hotspots.count) hotspots from \(crowd.places), asking \(source) at most every \(Int(crowd.maxAgeSeconds)) s a hotspot, \(crowd.dailyRequestLimit) a day")
                for problem in hotspots.problems.prefix(20) { logger.warning("crowd: \(crowd.places): \(problem) (left out)") }
            } catch {
                service.install(crowd: nil)
                logger.error("\(error); serving without crowd levels")
            }
        }
    }

    /// The keys a running daemon cannot change: the socket it listens on and the snapshot file
    /// its data came from.
    static func keysNeedingRestart(from old: AreasConfig, to new: AreasConfig) -> [String] {
        var keys: [String] = []
        if old.socket != new.socket { keys.append("socket") }
        if old.socketMode != new.socketMode { keys.append("socketMode") }
        if old.socketGroup != new.socketGroup { keys.append("socketGroup") }
        if old.snapshot != new.snapshot { keys.append("snapshot") }
        if old.http != new.http { keys.append("http") }
        return keys
    }
}
