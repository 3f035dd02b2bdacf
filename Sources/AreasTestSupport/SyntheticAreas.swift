import AreasCore

/// Areas as sources publish them, for tests of how a table holds them.
package enum SyntheticAreas {
    /// Areas whose fields hold strings of their own (positions as published, long values), one
    /// that repeats the name, and strings shared by records and fields alike.
    package static func withUpstreamFields(_ count: Int, source: String, seed: UInt64) -> [Area] {
        var random = SplitMix64(seed: seed)
        return SyntheticPoints.clustered(count: count, seed: seed).enumerated().map { i, point in
            let long = String(repeating: "가", count: Int.random(in: 0..<4, using: &random) == 0 ? Int.random(in: 40...400, using: &random) : 0)
            let name = i % 7 == 0 ? "" : "\(source) 흡연구역 \(i)"
            return Area(
                id: "\(source):\(String(i, radix: 36))", kind: i % 3 == 0 ? .smoking : .nonsmoking, name: name, coordinate: point,
                roadAddress: i % 4 == 0 ? "" : "한강대로 \(i % 9)", lotAddress: i % 2 == 0 ? "지번 \(i)" : "",
                province: "서울특별시", district: i % 5 == 0 ? "용산구" : "중구", source: source,
                fields: [Field("위도", String(point.latitude)), Field("경도", String(point.longitude)), Field("설치 위치", name),
                         Field("자치구명", "용산구"), Field("비고", "\(long)\(i)")])
        }
    }
}
