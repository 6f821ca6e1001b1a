internal import CZlib

/// Why gzip compression or decompression failed.
public enum GzipError: Error, Hashable, Sendable, CustomStringConvertible {
    /// zlib refused to initialise (out of memory or a version mismatch); the code is
    /// zlib's.
    case initializationFailed(code: Int32)
    /// The input is not a well-formed gzip stream; the message is zlib's.
    case corruptData(String)
    /// The input ended before the gzip trailer.
    case truncated
    /// Bytes follow the end of the gzip stream.
    case trailingData(count: Int)
    /// Decompressing would exceed the caller's size limit (a compression bomb guard).
    case outputTooLarge(limit: Int)

    /// What went wrong, in words.
    public var description: String {
        switch self {
        case .initializationFailed(let code): "zlib could not start (code \(code))"
        case .corruptData(let message): "not a valid gzip stream: \(message)"
        case .truncated: "the gzip stream is truncated"
        case .trailingData(let count): "\(count) bytes follow the gzip stream"
        case .outputTooLarge(let limit): "the decompressed data exceeds \(limit) bytes"
        }
    }
}

/// gzip (RFC 1952) through the system zlib.
package enum Gzip {
    /// gzip framing in zlib's window-bits convention: 15-bit window plus 16.
    private static let gzipWindowBits: Int32 = 15 + 16

    /// Compresses `bytes` into one gzip member.
    /// - Parameter level: zlib level 0 (store) … 9 (smallest); 6 is zlib's default.
    package static func compress(_ bytes: [UInt8], level: Int32 = 6) throws(GzipError) -> [UInt8] {
        var stream = z_stream()
        let start = deflateInit2_(
            &stream, min(max(level, 0), 9), Z_DEFLATED, gzipWindowBits, 8, Z_DEFAULT_STRATEGY,
            zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        guard start == Z_OK else { throw .initializationFailed(code: start) }
        defer { deflateEnd(&stream) }

        let bound = Int(deflateBound(&stream, UInt(bytes.count)))
        var output = [UInt8](repeating: 0, count: bound)
        let code: Int32 = bytes.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
                stream.avail_in = UInt32(input.count)
                stream.next_out = out.baseAddress
                stream.avail_out = UInt32(out.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        guard code == Z_STREAM_END else { throw .corruptData("deflate returned \(code)") }
        output.removeLast(output.count - Int(stream.total_out))
        return output
    }

    /// Decompresses one gzip member.
    /// - Parameter maximumSize: the largest output accepted; larger output throws
    ///   ``GzipError/outputTooLarge(limit:)`` instead of exhausting memory.
    package static func decompress(_ bytes: [UInt8], maximumSize: Int = 256 << 20) throws(GzipError) -> [UInt8] {
        var stream = z_stream()
        let start = inflateInit2_(&stream, gzipWindowBits, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        guard start == Z_OK else { throw .initializationFailed(code: start) }
        defer { inflateEnd(&stream) }

        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: max(4096, min(bytes.count * 4, 1 << 20)))
        let result: Result<Void, GzipError> = bytes.withUnsafeBufferPointer { input in
            stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
            stream.avail_in = UInt32(input.count)
            while true {
                let code: Int32 = chunk.withUnsafeMutableBufferPointer { out in
                    stream.next_out = out.baseAddress
                    stream.avail_out = UInt32(out.count)
                    return inflate(&stream, Z_NO_FLUSH)
                }
                let produced = chunk.count - Int(stream.avail_out)
                if output.count + produced > maximumSize { return .failure(.outputTooLarge(limit: maximumSize)) }
                output.append(contentsOf: chunk[..<produced])
                switch code {
                case Z_STREAM_END:
                    let rest = Int(stream.avail_in)
                    return rest == 0 ? .success(()) : .failure(.trailingData(count: rest))
                case Z_OK:
                    continue
                case Z_BUF_ERROR:
                    // No progress possible with a fresh output chunk: the input ran
                    // out before the end of the stream.
                    return .failure(.truncated)
                default:
                    let message = stream.msg.map { String(cString: $0) } ?? "code \(code)"
                    return .failure(.corruptData(message))
                }
            }
        }
        try result.get()
        return output
    }
}
