import AreasCore
import AreasSystem

extension Refresher {
    /// The placing of this refresh's rows without a position, when any source geocodes; with
    /// any problem reading the positions file or the memory.
    func startGeocoding(now: Double) -> (Geocoding?, [String]) {
        // A data set whose columns are chosen at the refresh may turn out to hold addresses only.
        guard config.sources.contains(where: { $0.geocode != nil || $0.choosesFields }) else { return (nil, []) }
        var problems: [String] = []
        let memory = geocodeMemory.withLock { (cached: inout GeocodeMemory?) -> GeocodeMemory in
            if let cached { return cached }
            guard let path = geocodeMemoryPath else { return GeocodeMemory() }
            let (loaded, problem) = GeocodeMemory.load(path: path, bounds: config.bounds)
            if let problem { problems.append(problem) }
            cached = loaded
            return loaded
        }
        var positions = OperatorPositions()
        if let path = config.positions {
            do throws(UpstreamError) {
                positions = try OperatorPositions(path: path, bounds: config.bounds)
            } catch {
                problems.append("the positions file is not used: \(error)")
            }
        }
        let client = config.geocoder.map { GeocoderClient(config: $0, bounds: config.bounds, environment: environment, quota: quota, pacing: geocoderPacing) }
        return (Geocoding(memory: memory, positions: positions, client: client, now: now), problems)
    }

    /// Keeps what the geocoder said for the next refresh, on disk when there is a snapshot
    /// folder; a problem writing it, if any.
    func finishGeocoding(_ geocoding: Geocoding, now: Double) async -> [String] {
        var memory = await geocoding.memory
        memory.prune(now: now)
        let unchanged = geocodeMemory.withLock { cached in
            defer { cached = memory }
            return cached == memory
        }
        guard !unchanged, let path = geocodeMemoryPath else { return [] }
        do throws(SystemError) {
            try memory.save(path: path)
            return []
        } catch {
            return ["cannot keep the geocoder's answers in \(path): \(error)"]
        }
    }
}
