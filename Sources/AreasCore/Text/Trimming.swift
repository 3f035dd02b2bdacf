extension String {
    /// Trimmed of white space at both ends (upstream pads values and coordinates).
    package var trimmed: String {
        guard let firstByte = utf8.first, let lastByte = utf8.last else { return "" }
        // Fast path, by bytes: most values have no padding.
        if !Self.mayStartSpace(firstByte) && !Self.mayEndSpace(lastByte) { return self }
        var view = Substring(self)
        while let scalar = view.unicodeScalars.first, Self.isSpace(scalar) { view.unicodeScalars.removeFirst() }
        while let scalar = view.unicodeScalars.last, Self.isSpace(scalar) { view.unicodeScalars.removeLast() }
        return String(view)
    }

    /// Trimmed, and each run of white space inside made one space: how header names and
    /// geocoder queries are compared (`"구   분"` is `"구 분"`).
    package var collapsingWhitespace: String {
        var result = ""
        var pendingSpace = false
        for scalar in unicodeScalars {
            if Self.isSpace(scalar) {
                pendingSpace = !result.isEmpty
            } else {
                if pendingSpace { result.unicodeScalars.append(" ") }
                pendingSpace = false
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Whether a White_Space character's UTF-8 can begin with this byte.
    private static func mayStartSpace(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x09...0x0D, 0x20, 0xC2, 0xE1, 0xE2, 0xE3: return true
        default: return false
        }
    }

    /// Whether a White_Space character's UTF-8 can end with this byte.
    private static func mayEndSpace(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x09...0x0D, 0x20, 0x80...0x8A, 0x9F, 0xA0, 0xA8, 0xA9, 0xAF: return true
        default: return false
        }
    }

    /// Unicode White_Space, spelled out: cheaper than a property lookup on every value.
    private static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09...0x0D, 0x20, 0x85, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000: return true
        default: return false
        }
    }
}
