import AreasCore
import AreasIngest

/// Edits a snapshot's bytes the way an attacker with the checksum would: the change is sealed
/// with a fresh checksum, so only the checks on the numbers themselves can refuse it.
package enum HostileSnapshot {
    /// Writes `value` little-endian at `offset` and seals the file again.
    package static func write<T: FixedWidthInteger>(_ value: T, at offset: Int, in bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { raw in
            for (i, byte) in raw.enumerated() { bytes[offset + i] = byte }
        }
        seal(&bytes)
    }

    /// Puts a fresh checksum in the header.
    package static func seal(_ bytes: inout [UInt8]) {
        SnapshotFile.seal(&bytes)
    }

    /// Where the bytes of `point` (latitude then longitude) first lie in `bytes`.
    package static func offset(of point: GeoPoint, in bytes: [UInt8]) -> Int? {
        var pattern: [UInt8] = []
        withUnsafeBytes(of: point.latitude.bitPattern.littleEndian) { pattern += $0 }
        withUnsafeBytes(of: point.longitude.bitPattern.littleEndian) { pattern += $0 }
        guard bytes.count >= pattern.count else { return nil }
        return (0...(bytes.count - pattern.count)).first { bytes[$0..<$0 + pattern.count].elementsEqual(pattern) }
    }
}
