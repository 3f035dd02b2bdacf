import AreasCore
import AreasProtocol

/// What `stats`, `sources` and the metrics count of a data set: each district's served areas
/// and reference dates, and each source's areas, merges, corrections, footprints and district
/// findings. Counted once when the data set is made and laid out in its snapshot, so answering
/// them touches no record: at a million areas a walk of the records is 50 MB of pages made
/// resident again after a load let them go.
package struct ServedCounts: Sendable, Equatable {
    /// One province and district's served areas by kind, and the oldest and newest reference
    /// day its records state (0: none).
    package struct District: Sendable, Equatable {
        package var province: String
        package var district: String
        package var smoking = 0
        package var nonsmoking = 0
        package var oldestDay: UInt16 = 0
        package var newestDay: UInt16 = 0

        package var referenceDates: (oldest: ReferenceDate, newest: ReferenceDate)? { ServedCounts.referenceDates(oldestDay, newestDay) }
    }

    /// One source's served areas (its records less those merged into another's area and those
    /// the operator hid), its records' reference days, and what became of its records.
    package struct Source: Sendable, Equatable {
        package var areas = 0
        package var oldestDay: UInt16 = 0
        package var newestDay: UInt16 = 0
        /// Its first record's kind; nil with no records.
        package var kind: AreaKind?
        /// Records served as part of another source's area, and further rows of a place it lists.
        package var merged = 0
        package var listedAgain = 0
        /// Records the operator's corrections touched.
        package var overridden = 0
        package var footprints = FootprintCounts()
        package var districtCheck = RegionFields.Counts()

        package init(areas: Int = 0, oldestDay: UInt16 = 0, newestDay: UInt16 = 0) {
            (self.areas, self.oldestDay, self.newestDay) = (areas, oldestDay, newestDay)
        }

        package var referenceDates: (oldest: ReferenceDate, newest: ReferenceDate)? { ServedCounts.referenceDates(oldestDay, newestDay) }
    }

    /// By province and district, in that order.
    package var districts: [District] = []
    package var bySource: [String: Source] = [:]

    package init() {}

    /// Served areas by province ("" for none), the provinces that serve any.
    package var byProvince: [String: Int] {
        districts.reduce(into: [:]) { byProvince, district in
            if district.smoking + district.nonsmoking > 0 { byProvince[district.province, default: 0] += district.smoking + district.nonsmoking }
        }
    }

    /// The oldest and newest reference dates of the days `oldest` and `newest` (0: none).
    package static func referenceDates(_ oldest: UInt16, _ newest: UInt16) -> (oldest: ReferenceDate, newest: ReferenceDate)? {
        guard let first = ReferenceDate(day: oldest), let last = ReferenceDate(day: newest) else { return nil }
        return (first, last)
    }

    /// The counts of `index` (over `catalog`'s table), walking every record once.
    package init(_ catalog: Catalog, index: AreaIndex) {
        let table = index.areas
        let records = table.records
        // Tallied by the records' province and district references: a source is mostly one
        // district, so the record before's tally is usually the one.
        struct Tally { var smoking = 0, nonsmoking = 0, oldest = UInt16.max, newest: UInt16 = 0 }
        var slots: [UInt64: Int] = [:]
        var tallies: [Tally] = []
        var (lastKey, slot) = (UInt64.max, 0)
        for (position, record) in records.enumerated() {
            let key = UInt64(record.province) << 32 | UInt64(record.district)
            if key != lastKey {
                if let known = slots[key] {
                    slot = known
                } else {
                    slot = tallies.count
                    slots[key] = slot
                    tallies.append(Tally())
                }
                lastKey = key
            }
            if index.isServed(position) {
                if record.kind == .smoking { tallies[slot].smoking += 1 } else { tallies[slot].nonsmoking += 1 }
            }
            if record.referenceDay > 0 {
                (tallies[slot].oldest, tallies[slot].newest) = (min(tallies[slot].oldest, record.referenceDay), max(tallies[slot].newest, record.referenceDay))
            }
        }
        let byRefs = slots.mapValues { tallies[$0] }
        // Equal names stored apart (tables concatenated from several sources) count together.
        var byName: [String: District] = [:]
        for (key, tally) in byRefs {
            let (province, name) = (table.strings.string(StringArena.Ref(key >> 32)), table.strings.string(StringArena.Ref(truncatingIfNeeded: key)))
            var district = byName[province + "\u{1F}" + name] ?? District(province: province, district: name, oldestDay: .max)
            district.smoking += tally.smoking
            district.nonsmoking += tally.nonsmoking
            (district.oldestDay, district.newestDay) = (min(district.oldestDay, tally.oldest), max(district.newestDay, tally.newest))
            byName[province + "\u{1F}" + name] = district
        }
        districts = byName.values.map { district in
            var district = district
            if district.oldestDay == .max { district.oldestDay = 0 }
            return district
        }.sorted { ($0.province, $0.district) < ($1.province, $1.district) }

        let groups = index.groups
        for (name, span) in catalog.sources {
            var source = Source(oldestDay: .max)
            source.kind = span.range.first.map { records[$0].kind }
            for position in span.range {
                if index.isServed(position) { source.areas += 1 }
                if groups.isMergedAcrossSources(position, in: table) { source.merged += 1 } else if groups.isListedAgain(position, in: table) { source.listedAgain += 1 }
                if !index.overrides.flags(of: position).isEmpty { source.overridden += 1 }
                let day = records[position].referenceDay
                if day > 0 { (source.oldestDay, source.newestDay) = (min(source.oldestDay, day), max(source.newestDay, day)) }
            }
            if source.oldestDay == .max { source.oldestDay = 0 }
            source.footprints = index.footprintCounts(in: span.range)
            source.districtCheck = RegionFields.counts(in: table, span.range)
            bySource[name] = source
        }
    }
}

extension ServedCounts {
    /// The counts as a snapshot keeps them: one JSON text.
    var text: [UInt8] {
        var writer = JSONWriter(capacity: 256 + 64 * districts.count + 256 * bySource.count)
        writer.beginObject()
        writer.key("districts")
        writer.beginArray()
        for district in districts {
            writer.beginArray()
            writer.string(district.province)
            writer.string(district.district)
            for number in [district.smoking, district.nonsmoking, Int(district.oldestDay), Int(district.newestDay)] { writer.number(number) }
            writer.endArray()
        }
        writer.endArray()
        writer.key("bySource")
        writer.beginObject()
        for (name, source) in bySource.sorted(by: { $0.key < $1.key }) {
            writer.key(escaping: name)
            writer.beginObject()
            writer.key("kind")
            if let kind = source.kind { writer.string(kind.rawValue) } else { writer.null() }
            let footprints = source.footprints, check = source.districtCheck
            for (key, number) in [("areas", source.areas), ("oldestDay", Int(source.oldestDay)), ("newestDay", Int(source.newestDay)), ("merged", source.merged),
                                  ("listedAgain", source.listedAgain), ("overridden", source.overridden), ("clamped", footprints.clamped),
                                  ("wordsNotUnderstood", footprints.wordsNotUnderstood), ("sizeNotUnderstood", footprints.sizeNotUnderstood),
                                  ("outsideDistrict", check.outsideDistrict), ("districtsFromPosition", check.districtsFromPosition)] {
                writer.key(escaping: key); writer.number(number)
            }
            writer.key("byBasis")
            writer.beginObject()
            for basis in FootprintBasis.allCases { writer.key(escaping: basis.name.description); writer.number(footprints.byBasis[basis] ?? 0) }
            writer.endObject()
            writer.key("outsideDistrictIds")
            writer.beginArray()
            for id in check.outsideDistrictIds { writer.string(id) }
            writer.endArray()
            writer.endObject()
        }
        writer.endObject()
        writer.endObject()
        return writer.bytes
    }

    /// Counts read back from `text` for the data set of `catalog` serving `served` areas: nil
    /// when the text is not what `text` writes or does not fit that data set (a source it
    /// lacks or does not have, more of anything than a source's records, districts whose
    /// areas do not add up to `served`).
    static func read(_ text: [UInt8], catalog: Catalog, served: Int) -> ServedCounts? {
        guard let value = try? JSONParser.parse(text), case .array(let districts)? = value["districts"],
              case .object(let sources)? = value["bySource"] else { return nil }
        func count(_ value: JSONValue?) -> Int? { value?.double.flatMap { Int(exactly: $0) }.flatMap { $0 >= 0 ? $0 : nil } }
        func day(_ value: JSONValue?) -> UInt16? { count(value).flatMap { UInt16(exactly: $0) } }
        var counts = ServedCounts()
        for entry in districts {
            let parts = entry.array
            guard parts.count == 6, let province = parts[0].string, let name = parts[1].string, let smoking = count(parts[2]), let nonsmoking = count(parts[3]),
                  let oldest = day(parts[4]), let newest = day(parts[5]), oldest <= newest else { return nil }
            counts.districts.append(District(province: province, district: name, smoking: smoking, nonsmoking: nonsmoking, oldestDay: oldest, newestDay: newest))
        }
        for (name, value) in sources {
            guard counts.bySource[name] == nil, let span = catalog.sources[name], case .array(let ids)? = value["outsideDistrictIds"],
                  case .object(let bases)? = value["byBasis"] else { return nil }
            let numbers = ["areas", "merged", "listedAgain", "overridden", "clamped", "wordsNotUnderstood", "sizeNotUnderstood", "outsideDistrict", "districtsFromPosition"]
                .compactMap { count(value[$0]) }
            guard numbers.count == 9, numbers.allSatisfy({ $0 <= span.range.count }), let oldest = day(value["oldestDay"]), let newest = day(value["newestDay"]),
                  oldest <= newest, ids.count <= RegionFields.Counts.listedIds else { return nil }
            var source = Source(areas: numbers[0], oldestDay: oldest, newestDay: newest)
            switch value["kind"] {
            case .string(let kind)?: guard let kind = AreaKind(rawValue: kind) else { return nil }; source.kind = kind
            case .null?: break
            default: return nil
            }
            (source.merged, source.listedAgain, source.overridden) = (numbers[1], numbers[2], numbers[3])
            (source.footprints.clamped, source.footprints.wordsNotUnderstood, source.footprints.sizeNotUnderstood) = (numbers[4], numbers[5], numbers[6])
            (source.districtCheck.outsideDistrict, source.districtCheck.districtsFromPosition) = (numbers[7], numbers[8])
            for (basisName, number) in bases {
                guard let basis = FootprintBasis.allCases.first(where: { $0.name.description == basisName }), let number = count(number), number <= span.range.count else { return nil }
                if number > 0 { source.footprints.byBasis[basis] = number }
            }
            for id in ids {
                guard let id = id.string else { return nil }
                source.districtCheck.outsideDistrictIds.append(id)
            }
            counts.bySource[name] = source
        }
        guard Set(counts.bySource.keys) == Set(catalog.sources.keys), counts.districts.reduce(0, { $0 + $1.smoking + $1.nonsmoking }) == served else { return nil }
        return counts
    }
}
