/// How a build lays out an `AreaTable.Record` in memory: its size and stride, where each field
/// lies, and the byte a non-smoking zone's kind is. A snapshot stores records as they lie in
/// memory and names the layout it was written with; a build that lays records out otherwise
/// refuses the file rather than misread it, and the checks that read a record's bytes before
/// it is trusted as a `Record` find each field here by name.
struct RecordLayout: Equatable {
    var size: Int
    var stride: Int
    var coordinate: Int
    var id: Int
    var name: Int
    var roadAddress: Int
    var lotAddress: Int
    var province: Int
    var district: Int
    var source: Int
    var kind: Int
    var geocoded: Int
    var nonsmokingByte: Int

    /// This build's layout.
    static let current: RecordLayout = {
        typealias R = AreaTable.Record
        func offset(_ field: PartialKeyPath<R>) -> Int { MemoryLayout<R>.offset(of: field) ?? -1 }
        return RecordLayout(
            size: MemoryLayout<R>.size, stride: MemoryLayout<R>.stride, coordinate: offset(\R.coordinate),
            id: offset(\R.id), name: offset(\R.name), roadAddress: offset(\R.roadAddress), lotAddress: offset(\R.lotAddress),
            province: offset(\R.province), district: offset(\R.district), source: offset(\R.source),
            kind: offset(\R.kind), geocoded: offset(\R.geocoded),
            nonsmokingByte: withUnsafeBytes(of: AreaKind.nonsmoking) { Int($0[0]) })
    }()

    /// The offsets of the string references, the id first.
    var stringReferences: [Int] { [id, name, roadAddress, lotAddress, province, district, source] }

    /// The layout as a snapshot stores it: size, stride, the field offsets in declaration
    /// order, then the non-smoking kind byte.
    var numbers: [UInt64] {
        ([size, stride, coordinate] + stringReferences + [kind, geocoded, nonsmokingByte]).map { UInt64(bitPattern: Int64($0)) }
    }
}

extension RecordLayout {
    /// The layout a snapshot names, or nil when it names a different number of values.
    init?(numbers: [UInt64]) {
        guard numbers.count == 13 else { return nil }
        let n = numbers.map { Int(Int64(bitPattern: $0)) }
        self.init(size: n[0], stride: n[1], coordinate: n[2], id: n[3], name: n[4], roadAddress: n[5], lotAddress: n[6],
                  province: n[7], district: n[8], source: n[9], kind: n[10], geocoded: n[11], nonsmokingByte: n[12])
    }
}
