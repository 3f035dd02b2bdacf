import AreasCore
import AreasProtocol

/// What `stats`, `sources` and the metrics count of a data set's served areas: by province,
/// and each source's areas and reference dates. Counted once when the data set is made and
/// laid out in its snapshot, so answering them touches no record: at a million areas a walk of
/// the records is 50 MB of pages made resident again after a load let them go.
package struct ServedCounts: Sendable, Equatable {
    /// One source's served areas (its records less those merged into another's area and those
    /// the operator hid), and the oldest and newest reference day its records state (0: none).
    package struct Source: Sendable, Equatable {
        package var areas = 0
        package var oldestDay: UInt16 = 0
        package var newestDay: UInt16 = 0

        package init(areas: Int = 0, oldestDay: UInt16 = 0, newestDay: UInt16 = 0) {
            (self.areas, self.oldestDay, self.newestDay) = (areas, oldestDay, newestDay)
        }

        /// The oldest and newest reference dates, or nil when no record states one.
        package var referenceDates: (oldest: ReferenceDate, newest: ReferenceDate)? {
            guard let oldest = ReferenceDate(day: oldestDay), let newest = ReferenceDate(day: newestDay) else { return nil }
            return (oldest, newest)
        }
    }

    /// Served areas by province ("" for none).
    package var byProvince: [String: Int] = [:]
    package var bySource: [String: Source] = [:]

    package init() {}

    /// The counts of `index` (over `catalog`'s table), walking every record once.
    package init(_ catalog: Catalog, index: AreaIndex) {
        let records = index.areas.records
        var byReference: [StringArena.Ref: Int] = [:]
        for position in records.indices where index.isServed(position) { byReference[records[position].province, default: 0] += 1 }
        for (province, count) in byReference { byProvince[index.areas.strings.string(province), default: 0] += count }
        for (name, span) in catalog.sources {
            var source = Source(oldestDay: .max)
            for position in span.range {
                if index.isServed(position) { source.areas += 1 }
                let day = records[position].referenceDay
                if day > 0 { (source.oldestDay, source.newestDay) = (min(source.oldestDay, day), max(source.newestDay, day)) }
            }
            if source.oldestDay == .max { source.oldestDay = 0 }
            bySource[name] = source
        }
    }

    /// The counts as a snapshot keeps them: one JSON text.
    var text: [UInt8] {
        var writer = JSONWriter(capacity: 256 + 64 * bySource.count)
        writer.beginObject()
        writer.key("byProvince")
        writer.beginObject()
        for (province, count) in byProvince.sorted(by: { $0.key < $1.key }) { writer.key(escaping: province); writer.number(count) }
        writer.endObject()
        writer.key("bySource")
        writer.beginObject()
        for (name, source) in bySource.sorted(by: { $0.key < $1.key }) {
            writer.key(escaping: name)
            writer.beginArray()
            for number in [source.areas, Int(source.oldestDay), Int(source.newestDay)] { writer.number(number) }
            writer.endArray()
        }
        writer.endObject()
        writer.endObject()
        return writer.bytes
    }

    /// Counts read back from `text` for the data set of `catalog` serving `served` areas: nil
    /// when the text is not what `text` writes or does not fit that data set (a source it
    /// lacks or does not have, more areas than a source's records, provinces that do not add up
    /// to `served`).
    static func read(_ text: [UInt8], catalog: Catalog, served: Int) -> ServedCounts? {
        guard let value = try? JSONParser.parse(text), case .object(let provinces)? = value["byProvince"],
              case .object(let sources)? = value["bySource"] else { return nil }
        func count(_ value: JSONValue) -> Int? { value.double.flatMap { Int(exactly: $0) }.flatMap { $0 >= 0 ? $0 : nil } }
        var counts = ServedCounts()
        for (province, value) in provinces {
            guard let number = count(value), counts.byProvince[province] == nil else { return nil }
            counts.byProvince[province] = number
        }
        for (name, value) in sources {
            let numbers = value.array.compactMap(count)
            guard numbers.count == 3, counts.bySource[name] == nil, let span = catalog.sources[name], numbers[0] <= span.range.count,
                  let oldest = UInt16(exactly: numbers[1]), let newest = UInt16(exactly: numbers[2]), oldest <= newest else { return nil }
            counts.bySource[name] = Source(areas: numbers[0], oldestDay: oldest, newestDay: newest)
        }
        guard Set(counts.bySource.keys) == Set(catalog.sources.keys), counts.byProvince.values.reduce(0, +) == served else { return nil }
        return counts
    }
}
