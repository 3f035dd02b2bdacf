/// The files a snapshot keeps beside it, each named here and nowhere else. For
/// `/var/lib/areas/areas.snapshot`:
///
/// | file | holds |
/// |---|---|
/// | `areas.snapshot.fetched` | when each source was last fetched whole (`FetchTimes`) |
/// | `areas.snapshot.requests` | today's upstream requests (`RequestQuota`) |
/// | `areas.geocoded.json` | what the geocoder said (`GeocodeMemory`) |
/// | `areas.history.json` | each source's last refreshes |
/// | `areas.snapshot.report` | what the last refresh read, source by source (`RefreshReport`) |
/// | `areas.snapshot.download` | a leader's snapshot while it arrives |
/// | `areas.snapshot.regions` | the administrative map, read from `regions.folder` and laid out to be mapped (`RegionStore`) |
/// | `NAME.corrupt` | a file that could not be read, set aside for inspection |
///
/// A refresh also keeps its new search index in a file of the folder while it builds (see
/// `ColumnOnDisk`); that file has no name, so nothing is left behind if the daemon stops.
package struct SnapshotFolder: Sendable, Equatable {
    /// The snapshot file itself.
    package let snapshot: String

    package init(snapshot: String) {
        self.snapshot = snapshot
    }

    package var fetchTimes: String { snapshot + ".fetched" }
    package var requestCounts: String { snapshot + ".requests" }
    package var download: String { snapshot + ".download" }
    package var regions: String { snapshot + ".regions" }
    package var lastReport: String { snapshot + ".report" }

    /// The folder the snapshot is in (`.` for a bare name).
    package var folder: String {
        guard let slash = snapshot.lastIndex(of: "/") else { return "." }
        return slash == snapshot.startIndex ? "/" : String(snapshot[..<slash])
    }

    /// `areas.geocoded.json` beside `areas.snapshot`: the snapshot's name without its
    /// extension, whatever that is.
    package var geocoderMemory: String {
        let slash = snapshot.lastIndex(of: "/")
        let folder = slash.map { String(snapshot[...$0]) } ?? ""
        let file = slash.map { String(snapshot[snapshot.index(after: $0)...]) } ?? snapshot
        let stem = file.lastIndex(of: ".").map { String(file[..<$0]) } ?? file
        return folder + (stem.isEmpty ? file : stem) + ".geocoded.json"
    }

    /// `areas.history.json` beside `areas.snapshot`: the name without `.snapshot`.
    package var sourceHistory: String {
        (snapshot.hasSuffix(".snapshot") ? String(snapshot.dropLast(".snapshot".count)) : snapshot) + ".history.json"
    }

    /// Where an unreadable `file` is moved, kept for inspection.
    package static func setAside(_ file: String) -> String { file + ".corrupt" }
}
