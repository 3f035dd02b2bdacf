import AreasCore

/// What a config's own text cannot show: whether the keys it names are in the environment,
/// and whether the columns it names are in the files it reads. Run by `areasd --check-config`
/// and at start, so a template naming a column the file lacks is found before the first
/// refresh rather than as every row rejected.
package struct ConfigCheck: Sendable {
    package let config: AreasConfig
    package let environment: [String: String]

    package init(config: AreasConfig, environment: [String: String]) {
        self.config = config
        self.environment = environment
    }

    /// Problems that make the config wrong whatever the data: an unset key variable, a column
    /// no row of a source's file has. A file that cannot be read is not one of them (it may
    /// appear by the next refresh); `unreadableFiles` lists those.
    package func problems() -> [ConfigError] {
        missingKeys() + problemsBesidesKeys()
    }

    /// The key variables the config names that the environment does not set. A daemon starts
    /// without them, as without the network: the sources (or the geocoder, or the city) that
    /// need one fail, each saying which variable, and answers say `unavailable` and why.
    package func missingKeys() -> [ConfigError] {
        var missing: [ConfigError] = []
        for (i, source) in config.sources.enumerated() {
            if case .url = source.location, let variable = source.serviceKeyEnv, (environment[variable] ?? "").isEmpty {
                missing.append(ConfigError(path: config.path, key: "sources[\(i)].serviceKeyEnv", problem: "the environment variable \(variable) is not set (it holds the service key)"))
            }
        }
        if let geocoder = config.geocoder, geocoder.recordedAnswers == nil, let variable = geocoder.keyEnv, (environment[variable] ?? "").isEmpty {
            missing.append(ConfigError(path: config.path, key: "geocoder.keyEnv", problem: "the environment variable \(variable) is not set (it holds the geocoder's key)"))
        }
        if let crowd = config.crowd, crowd.recordedAnswers == nil, let variable = crowd.keyEnv, (environment[variable] ?? "").isEmpty {
            missing.append(ConfigError(path: config.path, key: "crowd.keyEnv", problem: "the environment variable \(variable) is not set (it holds the city's key)"))
        }
        return missing
    }

    /// What makes the config wrong whatever the environment: a column no row of a source's
    /// file has.
    package func problemsBesidesKeys() -> [ConfigError] {
        var problems: [ConfigError] = []
        for (i, source) in config.sources.enumerated() {
            let key = "sources[\(i)]"
            // A file's columns, or a recorded API's from its first page; an API asked over the
            // network is not asked here (a request would spend its quota).
            let path: String
            switch source.location {
            case .file(let file): path = file
            case .recordedPages(let directory):
                guard let first = (try? RecordedPageTransport(directory: directory))?.firstPage else { continue }
                path = first
            case .url, .dataset: continue
            }
            guard let columns = try? columns(of: source, at: path) else { continue }
            let named = source.fields.columns.map { ("fields.\($0.0)", $0.1) } + (source.geocode?.columns ?? []).map { ("geocode", $0) }
            for (field, column) in named where !columns.contains(column) {
                let shown = columns.count <= 20 ? columns.joined(separator: ", ") : columns.prefix(20).joined(separator: ", ") + ", ..."
                problems.append(ConfigError(path: config.path, key: "\(key).\(field)", problem: "column '\(column)' is not in \(path) (its columns: \(shown))"))
            }
        }
        return problems
    }

    /// A file the config names that cannot be used now, and what the daemon does meanwhile.
    package struct UnreadableFile: Sendable, CustomStringConvertible {
        package let problem: ConfigError
        /// What running without it means, in words for the operator.
        package let meanwhile: String

        package var description: String { "\(problem): \(meanwhile)" }
    }

    /// Files the config names that cannot be read now, each with why.
    package func unreadableFiles() -> [UnreadableFile] {
        var found: [UnreadableFile] = []
        func add(_ key: String, _ problem: String, _ meanwhile: String) {
            found.append(UnreadableFile(problem: ConfigError(path: config.path, key: key, problem: problem), meanwhile: meanwhile))
        }
        for (i, source) in config.sources.enumerated() {
            guard case .file(let path) = source.location else { continue }
            do throws(UpstreamError) { _ = try columns(of: source, at: path) } catch {
                add("sources[\(i)].file", error.description, "starting without it; source \(source.name) fails until it can be read")
            }
        }
        if let path = config.positions {
            do throws(UpstreamError) { _ = try OperatorPositions(path: path, bounds: config.bounds) } catch {
                add("positions", error.description, "starting without it; rows it would place are geocoded or rejected until it can be read")
            }
        }
        if let path = config.overrides {
            do throws(UpstreamError) {
                let file = try OverridesFile(path: path, bounds: config.bounds)
                for problem in file.problems { add("overrides", problem, "that line is skipped; the file's other corrections apply") }
            } catch {
                add("overrides", error.description, "starting without the corrections; they apply once the file can be read")
            }
        }
        if let path = config.crowd?.places {
            do throws(CrowdHotspots.Failure) { _ = try CrowdHotspots(path: path) } catch {
                add("crowd.places", error.reason, "starting without crowd levels; they come once the file can be read and the daemon is reloaded")
            }
        }
        if let path = config.geocoder?.recordedAnswers {
            do throws(RecordedGeocoderAnswers.Failure) { _ = try RecordedGeocoderAnswers(path: path) } catch {
                add("geocoder.recorded", error.description, "starting without the recorded answers; rows to geocode are rejected until it can be read")
            }
        }
        return found
    }

    /// The column names a file source's rows can have: the header's, numbers for a headerless
    /// file (as many as its widest row), the members of a JSON file's rows.
    func columns(of source: SourceConfig, at path: String) throws(UpstreamError) -> Set<String> {
        let bytes = try FileTransport.read(path, maxBytes: source.maxPageBytes)
        if source.format == .csv, source.hasHeader {
            let decoder = CSVDecoder(encoding: source.encoding, hasHeader: true, delimiter: source.delimiter)
            return Set(try decoder.columnNames(of: bytes) ?? [])
        }
        let records = try source.decoder.decode(bytes).records
        return Set(records.flatMap { $0.map(\.key) })
    }
}
