import Glibc

/// Converts text between character sets with the C library's `iconv` (glibc knows CP949,
/// the Korean Windows code page most district files are saved in).
package struct TextConverter: ~Copyable {
    /// Why a conversion stopped.
    package enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// The C library has no converter between the two names.
        case unsupported(from: String, to: String)
        /// The bytes at `offset` are not a character of the source set.
        case invalidSequence(offset: Int, bytes: [UInt8])
        /// The text ends inside a multi-byte character.
        case truncatedSequence(offset: Int)
        case system(SystemError)

        package var description: String {
            switch self {
            case .unsupported(let from, let to): return "this system cannot convert \(from) to \(to)"
            case .invalidSequence(let offset, let bytes):
                return "byte\(bytes.count == 1 ? "" : "s") " + bytes.map { "0x" + String($0, radix: 16, uppercase: true) }.joined(separator: " ") + " at offset \(offset) \(bytes.count == 1 ? "is" : "are") not a character"
            case .truncatedSequence(let offset): return "the text ends inside a character at offset \(offset)"
            case .system(let error): return error.description
            }
        }
    }

    private let descriptor: iconv_t
    package let source: String
    package let target: String

    package init(from source: String, to target: String) throws(Failure) {
        guard let descriptor = iconv_open(target, source), Int(bitPattern: descriptor) != -1 else {
            throw .unsupported(from: source, to: target)
        }
        self.descriptor = descriptor
        self.source = source
        self.target = target
    }

    deinit { iconv_close(descriptor) }

    /// All of `input` converted; a byte sequence that is not a character stops it, named by offset.
    package func convert(_ input: [UInt8]) throws(Failure) -> [UInt8] {
        guard !input.isEmpty else { return [] }
        // Any state a failed conversion left behind is dropped.
        iconv(descriptor, nil, nil, nil, nil)
        var output = [UInt8](repeating: 0, count: input.count * 3 / 2 + 16)
        var written = 0
        var consumed = 0
        while true {
            let errorCode: Int32 = input.withUnsafeBufferPointer { source in
                output.withUnsafeMutableBufferPointer { target in
                    guard let sourceBase = source.baseAddress, let targetBase = target.baseAddress else { return EINVAL }
                    var inPointer: UnsafeMutablePointer<CChar>? = UnsafeMutablePointer(mutating: UnsafeRawPointer(sourceBase + consumed).assumingMemoryBound(to: CChar.self))
                    var inLeft = source.count - consumed
                    var outPointer: UnsafeMutablePointer<CChar>? = UnsafeMutableRawPointer(targetBase + written).assumingMemoryBound(to: CChar.self)
                    var outLeft = target.count - written
                    let result = iconv(descriptor, &inPointer, &inLeft, &outPointer, &outLeft)
                    let code = result == -1 ? errno : 0
                    consumed = source.count - inLeft
                    written = target.count - outLeft
                    return code
                }
            }
            switch errorCode {
            case 0:
                output.removeSubrange(written...)
                return output
            case E2BIG:
                output.append(contentsOf: repeatElement(0, count: output.count))
            case EILSEQ:
                throw .invalidSequence(offset: consumed, bytes: Array(input[consumed..<min(consumed + 2, input.count)]))
            case EINVAL:
                throw .truncatedSequence(offset: consumed)
            default:
                throw .system(SystemError("iconv", errno: errorCode))
            }
        }
    }
}
