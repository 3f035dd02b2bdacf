import AreasCore
@testable import AreasIngest
import AreasTestSupport
import AreasTestTraits
import Testing

/// A refresh that replaces some sources and keeps others rebuilds the catalog row by row; its
/// text comes out answers first all the same (`AreaTable(concatenating:)` does it for a
/// refresh that replaces every source).
@Suite(.offThePool, .timeLimit(.minutes(5)))
struct CatalogTextLayoutTests {
    @Test func aMergeThatKeepsASourceLaysAnswerTextFirst() {
        let booths = SyntheticAreas.withUpstreamFields(700, source: "booths", seed: 7)
        let zones = SyntheticAreas.withUpstreamFields(1_800, source: "zones", seed: 8)
        let served = Catalog(areas: booths + zones, fetchedAt: ["booths": 1.7e9, "zones": 1.7e9])
        #expect(!LinearScan.answerTextComesFirst(in: served.table))
        let newZones = SyntheticAreas.withUpstreamFields(1_500, source: "zones", seed: 9)
        let replacement = Catalog.Replacement(table: AreaTable(areas: newZones).sortedByID(), fetchedAt: 1.8e9)
        let merged = served.merging(["zones": replacement], keeping: ["booths", "zones"])
        #expect(LinearScan.answerTextComesFirst(in: merged.table))
        #expect(merged.areas(of: "booths") == served.areas(of: "booths"))
        #expect(merged.areas(of: "zones") == Array(AreaTable(areas: newZones).sortedByID()))
        #expect(merged.sources.mapValues(\.fetchedAt) == ["booths": 1.7e9, "zones": 1.8e9])

        // Every source new: laid end to end, answers first too.
        let replaced = served.merging(["booths": .init(table: AreaTable(areas: booths).sortedByID(), fetchedAt: 1.9e9), "zones": replacement],
                                      keeping: ["booths", "zones"])
        #expect(LinearScan.answerTextComesFirst(in: replaced.table))
        #expect(replaced.areas(of: "zones") == merged.areas(of: "zones"))
    }
}
