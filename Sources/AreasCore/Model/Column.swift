import Glibc

/// An immutable run of fixed-size values: a block allocated for it, or a section of a snapshot
/// file mapped into memory.
///
/// A data set is built once and then only read, so its tables and trees need no growable
/// storage, only memory that stays put for as long as some reader holds it. That is what lets
/// a snapshot be served where it lies: the same column type holds values built by a refresh and
/// values read straight from the mapped file, and the searches cannot tell them apart. The
/// memory lives as long as its `owner`, so a query that began on an old mapping finishes on it
/// after a refresh has swapped in a new one.
@frozen
public struct Column<Element: BitwiseCopyable>: @unchecked Sendable, RandomAccessCollection {
    /// Keeps `base` valid: a `ColumnBlock`, or the mapping a section lies in.
    @usableFromInline let owner: AnyObject?

    /// What keeps the values alive: the mapped file a column was read from in place, the block
    /// it was allocated in, or nil.
    package var storage: AnyObject? { owner }
    @usableFromInline let base: UnsafePointer<Element>?
    public let count: Int

    public init() {
        owner = nil
        base = nil
        count = 0
    }

    /// A copy of `elements` in a block of its own.
    public init(_ elements: some Collection<Element>) {
        let count = elements.count
        self.init(unsafeUninitializedCount: count) { buffer in
            _ = buffer.initialize(fromContentsOf: elements)
        }
    }

    /// A column of `count` values written by `initialize`, which must set every one.
    public init(unsafeUninitializedCount count: Int, initializingWith initialize: (UnsafeMutableBufferPointer<Element>) throws -> Void) rethrows {
        guard count > 0 else {
            self.init()
            return
        }
        let block = ColumnBlock(byteCount: count * MemoryLayout<Element>.stride, alignment: MemoryLayout<Element>.alignment)
        let typed = block.pointer.bindMemory(to: Element.self, capacity: count)
        try initialize(UnsafeMutableBufferPointer(start: typed, count: count))
        self.init(unsafeBase: UnsafePointer(typed), count: count, owner: block)
    }

    /// A block for `count` values, filled by its owner through `buffer` before it becomes a
    /// column: for a column written in pieces, from sources let go one after another.
    package struct Unfilled {
        private let block: ColumnBlock?
        package let buffer: UnsafeMutableBufferPointer<Element>

        package init(count: Int) {
            block = count > 0 ? ColumnBlock(byteCount: count * MemoryLayout<Element>.stride, alignment: MemoryLayout<Element>.alignment) : nil
            buffer = UnsafeMutableBufferPointer(start: block?.pointer.bindMemory(to: Element.self, capacity: count), count: count)
        }

        /// The column, once every value has been set.
        package var column: Column {
            Column(unsafeBase: UnsafePointer(buffer.baseAddress), count: buffer.count, owner: block)
        }
    }

    /// `count` values at `base`, valid while `owner` lives (a mapped file's section).
    package init(unsafeBase base: UnsafePointer<Element>?, count: Int, owner: AnyObject?) {
        self.owner = owner
        self.base = count > 0 ? base : nil
        self.count = count
    }

    @inlinable public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int { count }

    @inlinable
    public subscript(position: Int) -> Element {
        precondition(UInt(bitPattern: position) < UInt(bitPattern: count), "Column index out of range")
        return base.unsafelyUnwrapped[position]
    }

    @inlinable
    public func withUnsafeBufferPointer<R, Failure: Error>(_ body: (UnsafeBufferPointer<Element>) throws(Failure) -> R) throws(Failure) -> R {
        defer { withExtendedLifetime(owner) {} }
        return try body(UnsafeBufferPointer(start: base, count: count))
    }

    /// The bytes the values take.
    public var byteCount: Int { count * MemoryLayout<Element>.stride }

    /// The values in place, valid only while this column (its owner) is held: for a view over
    /// several columns that one `withExtendedLifetime` keeps.
    @usableFromInline var unsafeBuffer: UnsafeBufferPointer<Element> { UnsafeBufferPointer(start: base, count: count) }
}

/// Memory allocated for one column, freed with the last column that uses it.
@usableFromInline
final class ColumnBlock: @unchecked Sendable {
    let pointer: UnsafeMutableRawPointer

    init(byteCount: Int, alignment: Int) {
        pointer = UnsafeMutableRawPointer.allocate(byteCount: byteCount, alignment: Swift.max(alignment, 16))
    }

    deinit { pointer.deallocate() }
}
