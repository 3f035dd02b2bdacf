/// The keys of the daemon's answers, in one place: `Answers` writes them, the GeoJSON writer
/// copies areas' properties by them, and areasctl reads answers by them, so a renamed or added
/// key is one edit here that the compiler carries to every reader and writer.
///
/// A key is a static string: writing one is a copy of a constant, as fast as a literal.
public struct AnswerKey: Sendable, Equatable {
    public let text: StaticString

    @inlinable @inline(__always)
    public init(_ text: StaticString) { self.text = text }

    /// The key as a `String`, for readers.
    public var name: String { text.description }

    public static func == (a: AnswerKey, b: AnswerKey) -> Bool { a.name == b.name }

    // Every answer
    @inlinable public static var ok: AnswerKey { AnswerKey("ok") }
    @inlinable public static var error: AnswerKey { AnswerKey("error") }
    @inlinable public static var code: AnswerKey { AnswerKey("code") }
    @inlinable public static var message: AnswerKey { AnswerKey("message") }

    // Area lists
    @inlinable public static var count: AnswerKey { AnswerKey("count") }
    @inlinable public static var truncated: AnswerKey { AnswerKey("truncated") }
    @inlinable public static var next: AnswerKey { AnswerKey("next") }
    @inlinable public static var simplified: AnswerKey { AnswerKey("simplified") }
    @inlinable public static var areas: AnswerKey { AnswerKey("areas") }

    // An area
    @inlinable public static var id: AnswerKey { AnswerKey("id") }
    @inlinable public static var kind: AnswerKey { AnswerKey("kind") }
    @inlinable public static var name: AnswerKey { AnswerKey("name") }
    @inlinable public static var lat: AnswerKey { AnswerKey("lat") }
    @inlinable public static var lon: AnswerKey { AnswerKey("lon") }
    @inlinable public static var distanceMeters: AnswerKey { AnswerKey("distanceMeters") }
    @inlinable public static var address: AnswerKey { AnswerKey("address") }
    @inlinable public static var district: AnswerKey { AnswerKey("district") }
    @inlinable public static var source: AnswerKey { AnswerKey("source") }
    @inlinable public static var geocoded: AnswerKey { AnswerKey("geocoded") }
    @inlinable public static var province: AnswerKey { AnswerKey("province") }
    @inlinable public static var roadAddress: AnswerKey { AnswerKey("roadAddress") }
    @inlinable public static var lotAddress: AnswerKey { AnswerKey("lotAddress") }
    @inlinable public static var fields: AnswerKey { AnswerKey("fields") }
    @inlinable public static var referenceDate: AnswerKey { AnswerKey("referenceDate") }
    /// The records an area was merged from (`get`), and each record's sources (full answers).
    @inlinable public static var records: AnswerKey { AnswerKey("records") }
    @inlinable public static var alongMeters: AnswerKey { AnswerKey("alongMeters") }
    @inlinable public static var sideMeters: AnswerKey { AnswerKey("sideMeters") }
    /// A zone's footprint (`{"basis", "shape", "radiusMeters", "approximate", "words"}`), and
    /// a source's footprints counted by basis (`sources`).
    @inlinable public static var footprint: AnswerKey { AnswerKey("footprint") }
    @inlinable public static var footprints: AnswerKey { AnswerKey("footprints") }
    @inlinable public static var basis: AnswerKey { AnswerKey("basis") }
    @inlinable public static var shape: AnswerKey { AnswerKey("shape") }
    @inlinable public static var radiusMeters: AnswerKey { AnswerKey("radiusMeters") }
    @inlinable public static var widthMeters: AnswerKey { AnswerKey("widthMeters") }
    @inlinable public static var geometry: AnswerKey { AnswerKey("geometry") }
    @inlinable public static var approximate: AnswerKey { AnswerKey("approximate") }
    @inlinable public static var words: AnswerKey { AnswerKey("words") }
    @inlinable public static var clamped: AnswerKey { AnswerKey("clamped") }
    @inlinable public static var wordsNotUnderstood: AnswerKey { AnswerKey("wordsNotUnderstood") }
    @inlinable public static var sizeNotUnderstood: AnswerKey { AnswerKey("sizeNotUnderstood") }

    // `check`
    @inlinable public static var inside: AnswerKey { AnswerKey("inside") }
    @inlinable public static var summary: AnswerKey { AnswerKey("summary") }
    @inlinable public static var zones: AnswerKey { AnswerKey("zones") }
    @inlinable public static var footprintMeters: AnswerKey { AnswerKey("footprintMeters") }
    /// How far the point is from the zone's footprint's edge: the walk to leave it.
    @inlinable public static var edgeMeters: AnswerKey { AnswerKey("edgeMeters") }
    @inlinable public static var nearestSmoking: AnswerKey { AnswerKey("nearestSmoking") }
    @inlinable public static var bearingDegrees: AnswerKey { AnswerKey("bearingDegrees") }
    @inlinable public static var direction: AnswerKey { AnswerKey("direction") }
    @inlinable public static var entered: AnswerKey { AnswerKey("entered") }
    @inlinable public static var exited: AnswerKey { AnswerKey("exited") }

    // `clusters`
    @inlinable public static var zoom: AnswerKey { AnswerKey("zoom") }
    @inlinable public static var clusters: AnswerKey { AnswerKey("clusters") }
    @inlinable public static var south: AnswerKey { AnswerKey("south") }
    @inlinable public static var west: AnswerKey { AnswerKey("west") }
    @inlinable public static var north: AnswerKey { AnswerKey("north") }
    @inlinable public static var east: AnswerKey { AnswerKey("east") }

    // `health`
    @inlinable public static var loaded: AnswerKey { AnswerKey("loaded") }
    @inlinable public static var dataAgeSeconds: AnswerKey { AnswerKey("dataAgeSeconds") }
    @inlinable public static var stale: AnswerKey { AnswerKey("stale") }
    @inlinable public static var refreshing: AnswerKey { AnswerKey("refreshing") }
    @inlinable public static var lastRefreshSucceeded: AnswerKey { AnswerKey("lastRefreshSucceeded") }
    @inlinable public static var healthy: AnswerKey { AnswerKey("healthy") }
    @inlinable public static var problem: AnswerKey { AnswerKey("problem") }

    // `stats`
    @inlinable public static var version: AnswerKey { AnswerKey("version") }
    /// The daemon's own release (`stats`), where `version` is its data's.
    @inlinable public static var build: AnswerKey { AnswerKey("build") }
    @inlinable public static var since: AnswerKey { AnswerKey("since") }
    @inlinable public static var appeared: AnswerKey { AnswerKey("appeared") }
    @inlinable public static var changed: AnswerKey { AnswerKey("changed") }
    @inlinable public static var vanished: AnswerKey { AnswerKey("vanished") }
    @inlinable public static var what: AnswerKey { AnswerKey("what") }
    @inlinable public static var lastSeen: AnswerKey { AnswerKey("lastSeen") }
    @inlinable public static var lastChange: AnswerKey { AnswerKey("lastChange") }
    @inlinable public static var keptIDs: AnswerKey { AnswerKey("keptIDs") }
    @inlinable public static var firstSeen: AnswerKey { AnswerKey("firstSeen") }
    @inlinable public static var changedAt: AnswerKey { AnswerKey("changedAt") }
    /// When the first data version served was written: an area first seen then was there from the start.
    @inlinable public static var firstServed: AnswerKey { AnswerKey("firstServed") }
    @inlinable public static var byKind: AnswerKey { AnswerKey("byKind") }
    /// `byKind`'s members: the kinds' names.
    @inlinable public static var smoking: AnswerKey { AnswerKey("smoking") }
    @inlinable public static var nonsmoking: AnswerKey { AnswerKey("nonsmoking") }
    @inlinable public static var byProvince: AnswerKey { AnswerKey("byProvince") }
    @inlinable public static var bySource: AnswerKey { AnswerKey("bySource") }
    @inlinable public static var fetchedAt: AnswerKey { AnswerKey("fetchedAt") }
    @inlinable public static var ageSeconds: AnswerKey { AnswerKey("ageSeconds") }
    @inlinable public static var lastAttemptAt: AnswerKey { AnswerKey("lastAttemptAt") }
    @inlinable public static var lastSuccessAt: AnswerKey { AnswerKey("lastSuccessAt") }
    @inlinable public static var lastStatus: AnswerKey { AnswerKey("lastStatus") }
    @inlinable public static var lastError: AnswerKey { AnswerKey("lastError") }
    @inlinable public static var requestsToday: AnswerKey { AnswerKey("requestsToday") }
    @inlinable public static var geocoderRequestsToday: AnswerKey { AnswerKey("geocoderRequestsToday") }
    @inlinable public static var index: AnswerKey { AnswerKey("index") }
    @inlinable public static var buildMilliseconds: AnswerKey { AnswerKey("buildMilliseconds") }
    @inlinable public static var treeBytes: AnswerKey { AnswerKey("treeBytes") }
    @inlinable public static var nodeSize: AnswerKey { AnswerKey("nodeSize") }
    @inlinable public static var memory: AnswerKey { AnswerKey("memory") }
    @inlinable public static var recordBytes: AnswerKey { AnswerKey("recordBytes") }
    @inlinable public static var textBytes: AnswerKey { AnswerKey("textBytes") }
    @inlinable public static var indexBytes: AnswerKey { AnswerKey("indexBytes") }
    @inlinable public static var searchBytes: AnswerKey { AnswerKey("searchBytes") }
    @inlinable public static var heapBytes: AnswerKey { AnswerKey("heapBytes") }
    @inlinable public static var heapFreeBytes: AnswerKey { AnswerKey("heapFreeBytes") }
    @inlinable public static var residentBytes: AnswerKey { AnswerKey("residentBytes") }
    @inlinable public static var residentAnonymousBytes: AnswerKey { AnswerKey("residentAnonymousBytes") }
    @inlinable public static var residentFileBytes: AnswerKey { AnswerKey("residentFileBytes") }
    @inlinable public static var residentParts: AnswerKey { AnswerKey("residentParts") }
    @inlinable public static var otherFileBytes: AnswerKey { AnswerKey("otherFileBytes") }
    @inlinable public static var heapOtherBytes: AnswerKey { AnswerKey("heapOtherBytes") }
    @inlinable public static var anonymousUnallocatedBytes: AnswerKey { AnswerKey("anonymousUnallocatedBytes") }
    @inlinable public static var accountedBytes: AnswerKey { AnswerKey("accountedBytes") }
    @inlinable public static var snapshot: AnswerKey { AnswerKey("snapshot") }
    @inlinable public static var path: AnswerKey { AnswerKey("path") }
    @inlinable public static var bytes: AnswerKey { AnswerKey("bytes") }
    @inlinable public static var uptimeSeconds: AnswerKey { AnswerKey("uptimeSeconds") }
    @inlinable public static var queriesServed: AnswerKey { AnswerKey("queriesServed") }
    @inlinable public static var lastRefresh: AnswerKey { AnswerKey("lastRefresh") }

    // `metrics`
    @inlinable public static var metrics: AnswerKey { AnswerKey("metrics") }

    // `refresh` and its report
    @inlinable public static var refreshed: AnswerKey { AnswerKey("refreshed") }
    @inlinable public static var started: AnswerKey { AnswerKey("started") }
    @inlinable public static var report: AnswerKey { AnswerKey("report") }
    @inlinable public static var startedAt: AnswerKey { AnswerKey("startedAt") }
    @inlinable public static var durationMilliseconds: AnswerKey { AnswerKey("durationMilliseconds") }
    @inlinable public static var forced: AnswerKey { AnswerKey("forced") }
    @inlinable public static var succeeded: AnswerKey { AnswerKey("succeeded") }
    @inlinable public static var sources: AnswerKey { AnswerKey("sources") }
    @inlinable public static var status: AnswerKey { AnswerKey("status") }
    @inlinable public static var pages: AnswerKey { AnswerKey("pages") }
    @inlinable public static var retries: AnswerKey { AnswerKey("retries") }
    @inlinable public static var received: AnswerKey { AnswerKey("received") }
    @inlinable public static var accepted: AnswerKey { AnswerKey("accepted") }
    @inlinable public static var rejected: AnswerKey { AnswerKey("rejected") }
    @inlinable public static var repaired: AnswerKey { AnswerKey("repaired") }
    @inlinable public static var positions: AnswerKey { AnswerKey("positions") }
    @inlinable public static var published: AnswerKey { AnswerKey("published") }
    @inlinable public static var geocodedNew: AnswerKey { AnswerKey("geocodedNew") }
    @inlinable public static var geocodedRemembered: AnswerKey { AnswerKey("geocodedRemembered") }
    @inlinable public static var positionsFile: AnswerKey { AnswerKey("positionsFile") }
    @inlinable public static var duplicates: AnswerKey { AnswerKey("duplicates") }
    @inlinable public static var listedAgain: AnswerKey { AnswerKey("listedAgain") }
    @inlinable public static var added: AnswerKey { AnswerKey("added") }
    @inlinable public static var removed: AnswerKey { AnswerKey("removed") }
    @inlinable public static var serving: AnswerKey { AnswerKey("serving") }
    @inlinable public static var warnings: AnswerKey { AnswerKey("warnings") }
    @inlinable public static var merged: AnswerKey { AnswerKey("merged") }
    @inlinable public static var unreadableDates: AnswerKey { AnswerKey("unreadableDates") }

    // `sources`
    @inlinable public static var format: AnswerKey { AnswerKey("format") }
    @inlinable public static var rows: AnswerKey { AnswerKey("rows") }
    @inlinable public static var geocodedCount: AnswerKey { AnswerKey("geocoded") }
    @inlinable public static var overridden: AnswerKey { AnswerKey("overridden") }
    @inlinable public static var referenceDates: AnswerKey { AnswerKey("referenceDates") }
    @inlinable public static var oldest: AnswerKey { AnswerKey("oldest") }
    @inlinable public static var newest: AnswerKey { AnswerKey("newest") }
    @inlinable public static var districts: AnswerKey { AnswerKey("districts") }
    @inlinable public static var note: AnswerKey { AnswerKey("note") }
    /// On a record of `get` folded into another source's area: how far, and the name test.
    @inlinable public static var mergeReason: AnswerKey { AnswerKey("mergeReason") }
    @inlinable public static var names: AnswerKey { AnswerKey("names") }
    /// On an area list whose province or district names nothing the data has.
    @inlinable public static var unknownRegion: AnswerKey { AnswerKey("unknownRegion") }
    @inlinable public static var problems: AnswerKey { AnswerKey("problems") }
    @inlinable public static var outsideDistrict: AnswerKey { AnswerKey("outsideDistrict") }
    @inlinable public static var outsideDistrictIds: AnswerKey { AnswerKey("outsideDistrictIds") }
    @inlinable public static var districtsFromPosition: AnswerKey { AnswerKey("districtsFromPosition") }

    // Regions: `where`, `check`'s `region`, an area's district check, `/v1/regions`
    @inlinable public static var town: AnswerKey { AnswerKey("town") }
    @inlinable public static var codes: AnswerKey { AnswerKey("codes") }
    @inlinable public static var region: AnswerKey { AnswerKey("region") }
    @inlinable public static var regions: AnswerKey { AnswerKey("regions") }
    @inlinable public static var regionMismatch: AnswerKey { AnswerKey("regionMismatch") }
    @inlinable public static var stated: AnswerKey { AnswerKey("stated") }
    @inlinable public static var found: AnswerKey { AnswerKey("found") }
    @inlinable public static var meters: AnswerKey { AnswerKey("meters") }
    @inlinable public static var districtFrom: AnswerKey { AnswerKey("districtFrom") }

    // Search: `search`, and `at` where `near`, `radius` or `check` were given a text
    @inlinable public static var matched: AnswerKey { AnswerKey("matched") }
    @inlinable public static var places: AnswerKey { AnswerKey("places") }
    @inlinable public static var from: AnswerKey { AnswerKey("from") }
    @inlinable public static var at: AnswerKey { AnswerKey("at") }

    // People density (`crowd` on an area, `/v1/crowd`)
    @inlinable public static var crowd: AnswerKey { AnswerKey("crowd") }
    @inlinable public static var place: AnswerKey { AnswerKey("place") }
    @inlinable public static var level: AnswerKey { AnswerKey("level") }
    @inlinable public static var min: AnswerKey { AnswerKey("min") }
    @inlinable public static var max: AnswerKey { AnswerKey("max") }
    @inlinable public static var hotspots: AnswerKey { AnswerKey("hotspots") }
    @inlinable public static var lastOutcome: AnswerKey { AnswerKey("lastOutcome") }
    @inlinable public static var lastAskedAt: AnswerKey { AnswerKey("lastAskedAt") }
    @inlinable public static var dailyRequestLimit: AnswerKey { AnswerKey("dailyRequestLimit") }
    @inlinable public static var stopped: AnswerKey { AnswerKey("stopped") }
    @inlinable public static var outcomes: AnswerKey { AnswerKey("outcomes") }
    @inlinable public static var crowdBytes: AnswerKey { AnswerKey("crowdBytes") }
    /// Where a region's name is put on a map (`/v1/regions`): inside its largest part.
    @inlinable public static var labelLat: AnswerKey { AnswerKey("labelLat") }
    @inlinable public static var labelLon: AnswerKey { AnswerKey("labelLon") }
    // A data set's upload (`sources`' `revision`)
    @inlinable public static var revision: AnswerKey { AnswerKey("revision") }
    @inlinable public static var uddi: AnswerKey { AnswerKey("uddi") }
    @inlinable public static var title: AnswerKey { AnswerKey("title") }
    @inlinable public static var date: AnswerKey { AnswerKey("date") }
    /// Levels read from a folder of recorded answers, not asked of the city.
    @inlinable public static var recorded: AnswerKey { AnswerKey("recorded") }
}

extension JSONWriter {
    @inlinable @inline(__always)
    public mutating func key(_ key: AnswerKey) { self.key(key.text) }
}

extension JSONValue {
    /// The value of member `key` of an object (the last, when repeated), or nil.
    public subscript(key: AnswerKey) -> JSONValue? { self[key.name] }
}
