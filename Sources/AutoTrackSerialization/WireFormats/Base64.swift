/// Base64 (RFC 4648 §4, standard alphabet, `=` padding), without line breaks.
package enum Base64 {
    private static let alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// Maps an ASCII byte to its 6-bit value; 0xFF marks bytes outside the alphabet.
    private static let reverse: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (value, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(value) }
        return table
    }()

    /// The Base64 text of `bytes`, as ASCII bytes.
    package static func encode(_ bytes: [UInt8]) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: (bytes.count + 2) / 3 * 4)
        bytes.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                alphabet.withUnsafeBufferPointer { table in
                    var read = 0
                    var write = 0
                    while read + 3 <= input.count {
                        let chunk = UInt32(input[read]) << 16 | UInt32(input[read + 1]) << 8 | UInt32(input[read + 2])
                        out[write] = table[Int(chunk >> 18)]
                        out[write + 1] = table[Int(chunk >> 12 & 0x3F)]
                        out[write + 2] = table[Int(chunk >> 6 & 0x3F)]
                        out[write + 3] = table[Int(chunk & 0x3F)]
                        read += 3
                        write += 4
                    }
                    let rest = input.count - read
                    if rest > 0 {
                        let second = rest == 2 ? UInt32(input[read + 1]) : 0
                        let chunk = UInt32(input[read]) << 16 | second << 8
                        out[write] = table[Int(chunk >> 18)]
                        out[write + 1] = table[Int(chunk >> 12 & 0x3F)]
                        out[write + 2] = rest == 2 ? table[Int(chunk >> 6 & 0x3F)] : 0x3D
                        out[write + 3] = 0x3D
                    }
                }
            }
        }
        return output
    }

    /// Decodes padded Base64 text.
    /// - Throws: ``WireFormatError/invalidBase64(offset:)`` for a byte outside the
    ///   alphabet, misplaced padding, a length that is not a multiple of four, or
    ///   non-zero bits in the padding.
    package static func decode(_ text: some Collection<UInt8>) throws(WireFormatError) -> [UInt8] {
        let input = Array(text)
        guard input.count % 4 == 0 else { throw .invalidBase64(offset: input.count) }
        var output: [UInt8] = []
        output.reserveCapacity(input.count / 4 * 3)
        var index = 0
        while index < input.count {
            let isLast = index + 4 == input.count
            var values: [UInt32] = [0, 0, 0, 0]
            var padding = 0
            for offset in 0..<4 {
                let byte = input[index + offset]
                if byte == 0x3D, isLast, offset >= 2 {
                    padding += 1
                    continue
                }
                let value = reverse[Int(byte)]
                guard value != 0xFF, padding == 0 else { throw .invalidBase64(offset: index + offset) }
                values[offset] = UInt32(value)
            }
            let chunk = values[0] << 18 | values[1] << 12 | values[2] << 6 | values[3]
            output.append(UInt8(chunk >> 16))
            if padding < 2 { output.append(UInt8(chunk >> 8 & 0xFF)) }
            if padding < 1 { output.append(UInt8(chunk & 0xFF)) }
            // Canonical form: the bits the padding stands for must be zero.
            if (padding == 1 && chunk & 0xFF != 0) || (padding == 2 && chunk & 0xFFFF != 0) {
                throw .invalidBase64(offset: index + 4 - padding - 1)
            }
            index += 4
        }
        return output
    }
}
