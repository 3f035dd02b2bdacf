/// Which rows of one source are one area: the identity rule inside a source.
///
/// A source lists one place more than once: the same zone written with and without
/// `서울특별시`, with another managing body, or on two overlapping pages. It also lists
/// different places under one name at one position: a building (`건물 전체`) and the ground
/// 10 m around it (`건물 경계로부터 10m`) are two zones; a city file that names booths by
/// their building puts `현대아이파크몰` at one point three times, for the roof and two car
/// parks, told apart only by the address.
///
/// So rows with one name at one position (1e-6 degrees) are one area when they also state one
/// footprint (the extent words, the zone type, the size and the shape, as published) and, for
/// a smoking area, one address once the province, district, punctuation and unnumbered notes
/// are set aside (`PlaceName`). A zone's address does not tell zones apart: two rows that
/// draw one footprint at one position under one name are the same ground, whatever address
/// they give. Every row is kept as one of the area's records; a row equal to an earlier one
/// in every published column adds nothing and is dropped.
///
/// The area's first row keeps the id it always had; the place's later rows take that id
/// followed by `~` and a hash of their columns (`yongsan:027a36e0cd0ad58b~8c1f…`), so a table
/// in id order holds each area's rows together, leader first, and merging finds them by their
/// ids alone.
public enum SourceRows {
    /// Between an area's id and the part that names one of its further rows.
    public static let recordMark = UInt8(ascii: "~")

    /// What tells apart places one source lists under one name at one position: the
    /// footprint's words, type, size and shape, and a smoking area's address.
    public static func placeKey(of area: Area, footprint: FootprintPolicy) -> UInt64 {
        var hash = FNV1a()
        let columns = footprint.columns(of: area.source)
        func add(_ text: String?) {
            hash.add(collapsed(text ?? ""))
            hash.add(0x1F)
        }
        add(columns.extent.flatMap(area.field))
        add(columns.zoneType.flatMap(area.field))
        add(footprint.size(columns) { area.field($0) })
        add(area.field(ShapeText.fieldKey))
        if area.kind == .smoking {
            hash.add(addressKey(area.address, province: area.province, district: area.district))
        }
        return hash.value
    }

    /// What a row publishes, every column: equal only for the same row again.
    public static func rowKey(of area: Area) -> UInt64 {
        var hash = FNV1a()
        for field in area.fields {
            hash.add(field.key.utf8)
            hash.add(0x1F)
            hash.add(field.value.utf8)
            hash.add(0x1E)
        }
        return hash.value
    }

    /// The id of a further row of the area `areaID`: the area's id, `~`, the row's key.
    public static func recordID(area areaID: String, row: UInt64) -> String {
        let hex = String(row, radix: 16)
        return areaID + "~" + String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// An address as places are compared by: province, district, punctuation, white space and
    /// notes without a number set aside (`서울특별시 서대문구 연희로182` and `연희로 182` alike).
    public static func addressKey(_ address: String, province: String, district: String) -> [UInt8] {
        PlaceName.mainPart(PlaceName.key(address, province: province, district: district))
    }

    /// Text trimmed, its runs of white space made one space.
    private static func collapsed(_ text: String) -> [UInt8] {
        var out: [UInt8] = []
        var space = false
        for byte in text.utf8 {
            if byte == 0x20 || (0x09...0x0D).contains(byte) {
                space = !out.isEmpty
            } else {
                if space { out.append(0x20); space = false }
                out.append(byte)
            }
        }
        return out
    }
}

/// FNV-1a, 64 bits: the hash ids and identities are made with (stable across releases).
public struct FNV1a: Sendable {
    public private(set) var value: UInt64

    public init(seed: UInt64 = 0xCBF2_9CE4_8422_2325) { value = seed }

    public mutating func add<Bytes: Sequence<UInt8>>(_ bytes: Bytes) {
        for byte in bytes { add(byte) }
    }

    @inline(__always)
    public mutating func add(_ byte: UInt8) {
        value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
    }
}
