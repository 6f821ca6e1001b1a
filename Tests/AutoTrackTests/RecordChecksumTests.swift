import AutoTrack
import AutoTrackEvents
import Testing

/// The queue's record CRC equals zlib's whatever the processor: the folding path is
/// checked against zlib on every length around its block sizes, at every alignment.
@Suite("Record checksum")
struct RecordChecksumTests {
    @Test("the CRC equals zlib's for lengths 0–1 100, every alignment and random starting values")
    func equalsZlib() {
        var random = SplitMix64(seed: 7)
        let bytes = (0..<1200).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        bytes.withUnsafeBytes { all in
            for length in 0...1100 {
                for alignment in [0, 1, 3, 8, 15] where alignment + length <= all.count {
                    let slice = UnsafeRawBufferPointer(rebasing: all[alignment..<(alignment + length)])
                    let start = UInt32(truncatingIfNeeded: random.next())
                    let expected = RecordChecksum.continuingWithZlib(start, over: slice)
                    let actual = RecordChecksum.continuing(start, over: slice)
                    if actual != expected { Issue.record("length \(length), alignment \(alignment): \(actual) ≠ \(expected)") }
                }
            }
        }
    }

    @Test("known values: zlib's CRC-32 check value, and 4 MiB in pieces equals it in one go")
    func knownValues() {
        let check = Array("123456789".utf8).withUnsafeBytes { RecordChecksum.continuing(0, over: $0) }
        #expect(check == 0xCBF4_3926)
        var random = SplitMix64(seed: 11)
        let large = (0..<(4 << 20)).map { _ in UInt8(truncatingIfNeeded: random.next() >> 7) }
        large.withUnsafeBytes { all in
            let whole = RecordChecksum.continuing(0, over: all)
            var pieces: UInt32 = 0
            var offset = 0
            while offset < all.count {
                let end = min(all.count, offset + 1 + Int(random.next() % 5000))
                pieces = RecordChecksum.continuing(pieces, over: UnsafeRawBufferPointer(rebasing: all[offset..<end]))
                offset = end
            }
            #expect(whole == pieces)
            #expect(whole == RecordChecksum.continuingWithZlib(0, over: all))
        }
    }

    @Test("this processor folds with carry-less multiplication (x86-64 CI machines do)")
    func accelerated() {
        #if arch(x86_64)
        #expect(RecordChecksum.isAccelerated)
        #endif
    }
}
