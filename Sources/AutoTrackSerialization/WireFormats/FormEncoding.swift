/// `application/x-www-form-urlencoded` values (WHATWG URL standard): the unreserved
/// bytes `A–Z a–z 0–9 * - . _` stay, space becomes `+`, everything else `%XX`.
package enum FormEncoding {
    private static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x41...0x5A, 0x61...0x7A, 0x30...0x39, 0x2A, 0x2D, 0x2E, 0x5F: true
        default: false
        }
    }

    /// Appends the form encoding of `bytes` to `output`.
    package static func encode(_ bytes: some Sequence<UInt8>, into output: inout [UInt8]) {
        for byte in bytes {
            if isUnreserved(byte) {
                output.append(byte)
            } else if byte == 0x20 {
                output.append(0x2B)
            } else {
                output.append(0x25)
                output.append(hexDigits[Int(byte >> 4)])
                output.append(hexDigits[Int(byte & 0x0F)])
            }
        }
    }

    /// Decodes a form-encoded value: `+` is a space, `%XX` a byte.
    /// - Throws: ``WireFormatError/invalidPercentEncoding(offset:)`` for a `%` not
    ///   followed by two hex digits.
    package static func decode(_ text: some Collection<UInt8>) throws(WireFormatError) -> [UInt8] {
        let input = Array(text)
        var output: [UInt8] = []
        output.reserveCapacity(input.count)
        var index = 0
        while index < input.count {
            let byte = input[index]
            if byte == 0x25 {
                guard index + 2 < input.count, let high = hex(input[index + 1]), let low = hex(input[index + 2]) else {
                    throw .invalidPercentEncoding(offset: index)
                }
                output.append(high << 4 | low)
                index += 3
            } else {
                output.append(byte == 0x2B ? 0x20 : byte)
                index += 1
            }
        }
        return output
    }

    private static func hex(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x41 + 10
        case 0x61...0x66: byte - 0x61 + 10
        default: nil
        }
    }
}
