import AreasTestSupport
import Foundation
import Testing
@testable import AreasProtocol
import AreasTestTraits

@Suite(.offThePool, .timeLimit(.minutes(5))) struct JSONWriterTests {
    /// Distances are written from whole centimetres; the text must be what the shortest form
    /// of the rounded value would be, and parse back to it.
    @Test func metersMatchTheShortestFormOfTheRoundedValue() throws {
        var random = SplitMix64(seed: 17)
        var values: [Double] = [0, 0.004, 0.005, 0.05, 0.1, 0.3, 1, 1.5, 1.25, 10.1, 99.99, 100, 123.456, 1e9 + 0.07, -0.05, -1.5, -0.004]
        for _ in 0..<20_000 {
            values.append(Double.random(in: 0..<[1.0, 100, 10_000, 20_000_000][Int.random(in: 0..<4, using: &random)], using: &random))
        }
        for value in values {
            var writer = JSONWriter()
            writer.meters(value)
            let text = String(decoding: writer.bytes, as: UTF8.self)
            let rounded = (value * 100).rounded() / 100
            let expected = rounded == rounded.rounded() ? String(Int(rounded)) : rounded.description
            #expect(text == (expected == "-0" ? "0" : expected), "\(value)")
            #expect(Double(text) == (rounded == 0 ? 0 : rounded), "\(value)")
        }
    }

    /// An `ids` item written in one piece is byte for byte what the general calls write, in a
    /// list (commas) and alone, for ids that need escaping and distances of every size.
    @Test func iDEntryMatchesTheGeneralCalls() throws {
        var random = SplitMix64(seed: 23)
        let ids = ["a", "nonsmoking:11110-000123", "", "quote\"d", "back\\slash", "tab\tnew\nline", "흡연구역-7", String(repeating: "x", count: 40)]
        var distances: [Double?] = [nil, 0, 0.004, 0.005, -0.05, -0.004, -1.5, 99.995, 1e9 + 0.07, 9.99e12, 2e13, 1e300, .infinity, .nan]
        for _ in 0..<2_000 { distances.append(Double.random(in: 0..<20_000_000, using: &random)) }
        for id in ids {
            for distance in distances {
                var fused = JSONWriter(), general = JSONWriter()
                fused.beginArray(); general.beginArray()
                for _ in 0..<2 {
                    var utf8 = Array(id.utf8)
                    utf8.withUnsafeMutableBufferPointer { fused.beginIDEntry(id: UnsafeBufferPointer($0), distanceMeters: distance) }
                    fused.endObject()
                    general.beginObject()
                    general.key("id"); general.string(id)
                    if let distance { general.key("distanceMeters"); general.meters(distance) }
                    general.endObject()
                }
                fused.endArray(); general.endArray()
                #expect(String(decoding: fused.bytes, as: UTF8.self) == String(decoding: general.bytes, as: UTF8.self),
                        "\(id) \(String(describing: distance))")
            }
        }
    }

    /// A circular footprint written in one piece is byte for byte what the general calls
    /// write, after another member (a comma) and with members after it, for every basis and
    /// radii of every size.
    @Test func circleFootprintMatchesTheGeneralCalls() {
        var radii: [Double] = [0, 5, 10, 48.77, 79.788, 300, 99_999.995, 1e13, 1e300, .infinity, .nan]
        var random = SplitMix64(seed: 29)
        for _ in 0..<500 { radii.append(Double.random(in: 0..<100_000, using: &random)) }
        for basis: StaticString in ["stated", "route", "size", "default"] {
            for radius in radii {
                var fused = JSONWriter(), general = JSONWriter()
                for writer in [0, 1] {
                    if writer == 0 {
                        fused.beginObject(); fused.key("id"); fused.string("z")
                        fused.beginCircleFootprint(basis: basis, radiusMeters: radius)
                        fused.key("approximate"); fused.bool(true)
                        fused.endObject(); fused.endObject()
                    } else {
                        general.beginObject(); general.key("id"); general.string("z")
                        general.key("footprint"); general.beginObject()
                        general.key("basis"); general.string(basis.description)
                        general.key("shape"); general.string("circle")
                        general.key("radiusMeters"); general.meters(radius)
                        general.key("approximate"); general.bool(true)
                        general.endObject(); general.endObject()
                    }
                }
                #expect(String(decoding: fused.bytes, as: UTF8.self) == String(decoding: general.bytes, as: UTF8.self), "\(basis) \(radius)")
            }
        }
    }

    /// Doubles read back exactly, and where Swift's own shortest form has no exponent the text
    /// is that form: coordinates with any number of decimals, arbitrary values, every size.
    @Test func doublesAreWrittenInTheirShortestRoundTripForm() throws {
        var random = SplitMix64(seed: 31)
        var values: [Double] = [0.5, -0.5, 0.1, 0.3, 1e-6, 9.99e-7, 99_999.5, 100_000.5, 37.5665, 126.978, 1.0 / 3, -126.9780001,
                                0.000001234, 12345.6789012345, 1e15 + 0.5, .leastNonzeroMagnitude, .greatestFiniteMagnitude, -.leastNormalMagnitude]
        for _ in 0..<50_000 {
            let decimals = Int.random(in: 1...17, using: &random)
            let scaled = Double(Int64.random(in: -200_000_000_000...200_000_000_000, using: &random))
            values.append(scaled / pow(10, Double(decimals)))
            values.append(Double.random(in: -180...180, using: &random))
            values.append(Double(bitPattern: random.next()))
        }
        for value in values where value.isFinite {
            var writer = JSONWriter()
            writer.number(value)
            let text = String(decoding: writer.bytes, as: UTF8.self)
            let parsed = try #require(Double(text), "\(text)")
            #expect(parsed.bitPattern == (value.bitPattern == (-0.0).bitPattern ? 0.0.bitPattern : value.bitPattern), "\(text)")
            let shortest = value.description
            if !shortest.contains("e"), value != value.rounded() {
                #expect(text == shortest, "\(value)")
            }
        }
        // Values of up to ten decimals, as upstream coordinates are, take the short path.
        for _ in 0..<10_000 {
            let decimals = Int.random(in: 1...10, using: &random)
            let value = Double(Int64.random(in: 1...999_999_999_999_999, using: &random)) / pow(10, Double(decimals))
            guard value < 1e5, value >= 1e-6 else { continue }
            #expect(JSONWriter.shortDecimal(value) != nil, "\(value)")
        }
    }

    @Test func integersAtTheEdges() {
        var random = SplitMix64(seed: 37)
        let samples = (0..<10_000).map { _ in Int(bitPattern: UInt(random.next() >> UInt64.random(in: 0...63, using: &random))) &* (Bool.random(using: &random) ? 1 : -1) }
        // Each side of every length of digits.
        let powers = (1...18).map { (0..<$0).reduce(1) { r, _ in r * 10 } }
        let lengths = powers.flatMap { [$0, $0 - 1, $0 + 1, -$0, 1 - $0] }
        for value in [0, 1, -1, 9, 10, -10, 11, 99, 100, 101, 999, 1_000, 12_345, Int.max, Int.min, Int.min + 1] + lengths + samples {
            var writer = JSONWriter()
            writer.number(value)
            #expect(String(decoding: writer.bytes, as: UTF8.self) == String(value))
        }
    }

    /// Strings of every awkward kind, written into a buffer that starts small and must grow,
    /// read back by Foundation's parser.
    @Test func stringsRoundTripThroughAGrowingBuffer() throws {
        var random = SplitMix64(seed: 29)
        let pieces = ["a", "흡연", "\"", "\\", "\n", "\r", "\t", "\u{01}", "\u{1F}", "/", "😀", " ", "\u{7F}"]
        var strings = ["", String(repeating: "x", count: 100_000)]
        for _ in 0..<2_000 {
            strings.append((0..<Int.random(in: 0..<40, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined())
        }
        var writer = JSONWriter(capacity: 1)
        writer.beginArray()
        for string in strings { writer.string(string) }
        writer.endArray()
        let capacity = writer.capacity
        #expect(capacity > 100_000)
        let decoded = try JSONSerialization.jsonObject(with: Data(writer.bytes)) as? [String]
        #expect(decoded == strings)
        writer.reset()
        let isEmpty = writer.isEmpty
        #expect(isEmpty)
        writer.string("again")
        #expect(String(decoding: writer.bytes, as: UTF8.self) == "\"again\"")
    }

    @Test func literals() {
        var writer = JSONWriter()
        writer.beginArray()
        writer.bool(true)
        writer.bool(false)
        writer.null()
        writer.endArray()
        #expect(String(decoding: writer.bytes, as: UTF8.self) == "[true,false,null]")
    }
}

@Suite(.offThePool, .timeLimit(.minutes(5))) struct JSONNumberTests {
    /// The fast path for plain decimals must give exactly what the general conversion gives.
    @Test func plainDecimalsMatchTheGeneralConversion() throws {
        var random = SplitMix64(seed: 23)
        var texts = ["0", "-0", "0.0", "1", "-1", "37.5665", "126.978", "0.000001", "999999999999999", "1000000000000000",
                     "0.1", "0.30000000000000004", "9007199254740993", "123456789012345.6", "1e5", "2.5E-3", "00.5"]
        // Coordinates as clients send them: the shortest text that round-trips, 16 or 17 digits.
        var coordinates: [String] = []
        for _ in 0..<20_000 {
            coordinates.append(Double.random(in: 33...39, using: &random).description)
            coordinates.append(Double.random(in: -180...180, using: &random).description)
        }
        texts += coordinates
        for _ in 0..<50_000 {
            let digits = Int.random(in: 1...21, using: &random)
            var text = Bool.random(using: &random) ? "-" : ""
            let point = Int.random(in: 0...digits, using: &random)
            for d in 0..<digits {
                if d == point && d > 0 { text += "." }
                text += String(Int.random(in: 0...9, using: &random))
            }
            texts.append(text)
        }
        for text in texts {
            let bytes = Array(text.utf8)
            guard let general = Double(text) else { continue }
            if let fast = bytes.withUnsafeBufferPointer({ JSONParser.exactDecimal($0) }) {
                #expect(fast.bitPattern == general.bitPattern, "\(text)")
            }
            // Through the whole parser, fast path or not.
            guard case .array(let elements)? = try? JSONParser.parse(Array("[\(text)]".utf8)), case .number(let parsed)? = elements.first else {
                continue  // not JSON (a leading zero, say): the parser refuses it, which other tests cover
            }
            #expect(parsed.bitPattern == general.bitPattern, "\(text)")
        }
        #if arch(x86_64)
        // Nearly all of them take the fast path (a few sit on a midpoint and go to strtod).
        let fast = coordinates.filter { text in Array(text.utf8).withUnsafeBufferPointer { JSONParser.exactDecimal($0) } != nil }
        #expect(fast.count > coordinates.count * 99 / 100)
        #endif
    }
}
