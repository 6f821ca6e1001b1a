import AutoTrackEvents
import AutoTrackProperties
import Foundation
import Testing

@Suite("SHA-256 against FIPS 180-4 vectors and sha256sum")
struct SHA256Tests {
    @Test("NIST FIPS 180-4 example vectors", arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        ("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
         "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"),
    ])
    func vectors(message: String, digest: String) {
        #expect(SHA256.hexDigest(message) == digest)
        #expect(SHA256.hexDigest(Array(message.utf8)) == digest)
    }

    @Test("one million 'a' (FIPS 180-4 long vector), fed in uneven chunks")
    func millionA() {
        let million = [UInt8](repeating: 0x61, count: 1_000_000)
        #expect(SHA256.hexDigest(million) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
        var hasher = SHA256()
        var offset = 0
        var chunk = 1
        while offset < million.count {
            let end = min(offset + chunk, million.count)
            hasher.update(million[offset..<end])
            offset = end
            chunk = chunk * 7 % 997 + 1
        }
        let digest = hasher.finalize().map { String($0, radix: 16) }.map { $0.count == 1 ? "0" + $0 : $0 }.joined()
        #expect(digest == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test("agrees with sha256sum on 3 000 random inputs of 0–10 000 bytes")
    func agreesWithCoreutils() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sha-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var random = SplitMix64(seed: 256)
        var expected: [String: String] = [:]
        for index in 0..<3000 {
            let length = index < 200 ? index : Int.random(in: 0...10_000, using: &random)
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
            let name = "input\(index)"
            try Data(bytes).write(to: directory.appendingPathComponent(name))
            expected[name] = SHA256.hexDigest(bytes)
        }
        let output = try runSHA256Sum(in: directory, files: expected.keys.sorted())
        var checked = 0
        for line in output.split(separator: "\n") {
            let parts = line.split(separator: " ", omittingEmptySubsequences: true)
            guard parts.count == 2 else { continue }
            #expect(expected[String(parts[1])] == String(parts[0]), "\(parts[1])")
            checked += 1
        }
        #expect(checked == 3000)
    }

    private func runSHA256Sum(in directory: URL, files: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["sha256sum"] + files
        process.currentDirectoryURL = directory
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return String(decoding: data, as: UTF8.self)
    }
}
