import AreasCore
import AreasSystem

/// How much of a served index is in RAM, part by part: of the columns that lie in the mapped
/// snapshot, the pages resident now; of those held in memory (an index built or read into the
/// heap), their bytes, which the heap in use counts too.
package struct ResidentParts: Sendable, Equatable {
    /// Resident bytes of the mapped snapshot, by part.
    package var mapped: [FlatLayoutPart: Int] = [:]
    /// Bytes of columns held in memory, by part.
    package var inMemory: [FlatLayoutPart: Int] = [:]

    /// Every column of `index`, walked in the order the snapshot lays them out.
    package init(of index: AreaIndex) {
        var walker = Walker(mapping: (index.areas.records.storage as? MappedFile)?.bytes)
        index.write(to: &walker)
        self = walker.parts
    }

    package init() {}

    /// A layout writer that writes nothing: it adds each column to its part.
    private struct Walker: FlatLayoutWriter {
        let mapping: UnsafeRawBufferPointer?
        let pages = ResidentPages()
        var part = FlatLayoutPart.settings
        var parts = ResidentParts()

        init(mapping: UnsafeRawBufferPointer?) {
            self.mapping = mapping
        }

        mutating func number(_ value: UInt64) {}

        mutating func begin(_ part: FlatLayoutPart) {
            self.part = part
        }

        mutating func column<Element: BitwiseCopyable>(_ column: Column<Element>) {
            // The settings are a few names, laid out from copies made for the purpose.
            guard part != .settings else { return }
            column.withUnsafeBufferPointer { elements in
                let raw = UnsafeRawBufferPointer(elements)
                guard let start = raw.baseAddress, !raw.isEmpty else { return }
                if let mapping, let base = mapping.baseAddress, start >= base, start + raw.count <= base + mapping.count {
                    parts.mapped[part, default: 0] += pages.count(raw)
                } else {
                    parts.inMemory[part, default: 0] += raw.count
                }
            }
        }
    }
}
