/// Java's `String.hashCode()`: h = 31·h + c over the UTF-16 code units, in wrapping
/// 32-bit signed arithmetic. Sensors-compatible collectors use it as the `crc` of a
/// form body.
package enum JavaStringHash {
    /// The hash of `text`.
    package static func hash(_ text: String) -> Int32 {
        var hash: Int32 = 0
        for unit in text.utf16 { hash = hash &* 31 &+ Int32(unit) }
        return hash
    }

    /// The hash of ASCII bytes (each byte is one UTF-16 unit), as for Base64 text.
    package static func hash(ascii bytes: some Sequence<UInt8>) -> Int32 {
        var hash: Int32 = 0
        for byte in bytes { hash = hash &* 31 &+ Int32(byte) }
        return hash
    }
}
