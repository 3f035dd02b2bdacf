import AreasCore
import AreasIngest

/// The areas the data versions of the last 30 days removed, found by position: what a map
/// lists as gone from its view. Made once a data version and an hour (the 30 days move on),
/// from the change log's kept steps.
package struct RecentlyVanished: Sendable {
    package static let days = 30.0
    /// Listed at most in one answer: a view of the whole country after a publisher renumbered
    /// its file would otherwise list every row it had.
    package static let listedAtMost = 100

    let areas: [(area: ChangeLog.Before, lastSeen: Double)]
    let tree: PackedRTree
    /// The hour (since 1970) it was made for.
    let hour: Int

    init(changes: ChangeLog, index: AreaIndex, now: Double) {
        areas = changes.vanished(after: now - Self.days * 86_400, index: index)
        tree = PackedRTree(entries: areas.map { GeoBox(GeoPoint(uncheckedLatitude: $0.area.latitude, longitude: $0.area.longitude)) })
        hour = Int(now / 3_600)
    }

    /// Those in `box` of `kind` served in `region`, in id order, at most `listedAtMost`.
    package func inView(_ box: GeoBox, kind: KindFilter, region: Region) -> [(area: ChangeLog.Before, lastSeen: Double)] {
        var listed: [(area: ChangeLog.Before, lastSeen: Double)] = []
        for entry in tree.search(intersecting: box).sorted() where kind.admits(areas[Int(entry)].area.kind) && areas[Int(entry)].area.lies(in: region) {
            listed.append(areas[Int(entry)])
            if listed.count == Self.listedAtMost { break }
        }
        return listed
    }
}
