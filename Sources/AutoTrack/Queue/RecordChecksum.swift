internal import CAutoTrackChecksum
internal import CZlib

/// The CRC-32 of queue records — zlib's (reflected polynomial `0xEDB88320`) — computed
/// where the processor can by folding 16 bytes per step with carry-less
/// multiplication (x86-64 with PCLMULQDQ), and by zlib for the rest and elsewhere. The
/// values are zlib's in every case: the on-disk format does not depend on the
/// processor.
package enum RecordChecksum {
    /// Whether this processor folds with carry-less multiplication.
    package static let isAccelerated = autotrack_crc32_fold_available() != 0

    /// `crc` continued over `bytes`.
    package static func continuing(_ crc: UInt32, over bytes: UnsafeRawBufferPointer) -> UInt32 {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return crc }
        var crc = crc
        var folded = 0
        if isAccelerated, bytes.count >= 64 {
            folded = bytes.count & ~15
            crc = autotrack_crc32_fold(crc, base, folded)
        }
        guard folded < bytes.count else { return crc }
        return UInt32(truncatingIfNeeded: CZlib.crc32(uLong(crc), base + folded, uInt(bytes.count - folded)))
    }

    /// `crc` continued over `bytes` by zlib alone: the reference the folding is
    /// checked against.
    package static func continuingWithZlib(_ crc: UInt32, over bytes: UnsafeRawBufferPointer) -> UInt32 {
        UInt32(truncatingIfNeeded: CZlib.crc32(uLong(crc), bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), uInt(bytes.count)))
    }
}
