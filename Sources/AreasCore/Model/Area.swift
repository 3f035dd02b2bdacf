/// One place where smoking is allowed or forbidden, as published by one upstream source.
///
/// The named properties are the ones every query shows; `fields` keeps every column the
/// source published, in its order, so nothing upstream is lost.
public struct Area: Sendable, Hashable {
    /// Stable across refreshes: derived from the source name and the record's identity.
    public var id: String
    public var kind: AreaKind
    public var name: String
    public var coordinate: GeoPoint
    /// Road-name address (도로명주소).
    public var roadAddress: String
    /// Lot-number address (지번주소); upstream often leaves it empty.
    public var lotAddress: String
    /// Province or metropolitan city (시도), e.g. `서울특별시`.
    public var province: String
    /// District (시군구), e.g. `용산구`.
    public var district: String
    /// The configured name of the source the area came from.
    public var source: String
    /// Every upstream column, in the order the source sent them.
    public var fields: [Field]
    /// True when the position came from a geocoder (or an operator's positions file), not
    /// from the published data: answers say so, since such a position is only as good as
    /// the address it was found from.
    public var geocoded: Bool
    /// The day the publisher states the data for (`데이터기준일자`), when it states one.
    public var referenceDate: ReferenceDate?

    public init(
        id: String, kind: AreaKind, name: String, coordinate: GeoPoint,
        roadAddress: String = "", lotAddress: String = "",
        province: String = "", district: String = "",
        source: String, fields: [Field] = [], geocoded: Bool = false, referenceDate: ReferenceDate? = nil
    ) {
        self.id = id
        self.kind = kind
        self.name = name
        self.coordinate = coordinate
        self.roadAddress = roadAddress
        self.lotAddress = lotAddress
        self.province = province
        self.district = district
        self.source = source
        self.fields = fields
        self.geocoded = geocoded
        self.referenceDate = referenceDate
    }

    /// The address a person would look for: the road address, else the lot address.
    public var address: String { roadAddress.isEmpty ? lotAddress : roadAddress }

    /// The value of the upstream column `key`, if the source published it.
    public func field(_ key: String) -> String? {
        fields.first(where: { $0.key == key })?.value
    }
}

/// One upstream column of a record, kept verbatim.
public struct Field: Sendable, Hashable {
    public var key: String
    public var value: String

    public init(_ key: String, _ value: String) {
        self.key = key
        self.value = value
    }
}
