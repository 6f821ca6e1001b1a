import AutoTrackEvents
import AutoTrackProperties
import Foundation

/// `bench properties`: SHA-256 against `sha256sum` and `openssl dgst -sha256` on the
/// same 64 MiB, element ids per second, and the full click property set for an element
/// 30 levels deep in a 2 000-node tree.
struct PropertiesBenchmark {
    func run() -> BenchmarkReport {
        var random = SplitMix64(seed: 64)
        let size = 64 << 20
        var data = [UInt8](repeating: 0, count: size)
        data.withUnsafeMutableBytes { raw in
            let words = raw.bindMemory(to: UInt64.self)
            for index in words.indices { words[index] = random.next() }
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("autotrack-sha-\(UUID().uuidString).bin")
        try? Data(data).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }

        var hashing = BenchmarkHarness()
        hashing.rounds = 5
        let ourDigest = SHA256.hexDigest(data)
        let sha256sumDigest = runTool(["sha256sum", file.path]).first.map(String.init) ?? "unavailable"
        let opensslDigest = runTool(["openssl", "dgst", "-sha256", "-r", file.path]).first.map(String.init) ?? "unavailable"
        let sha = hashing.measure([
            .init(name: "AutoTrack SHA256 (in memory)", operationsPerRun: 1, bytesPerRun: size) {
                SHA256.hash(data).count
            },
            .init(name: "sha256sum (coreutils, from file)", operationsPerRun: 1, bytesPerRun: size) {
                runTool(["sha256sum", file.path]).count
            },
            .init(name: "openssl dgst -sha256 (from file)", operationsPerRun: 1, bytesPerRun: size) {
                runTool(["openssl", "dgst", "-sha256", "-r", file.path]).count
            },
        ])

        let identities = (0..<10_000).map { index in
            "path(ViewController[0]/UIView[0]/UITableView[0]/MyTableViewCell#[0,\(index)]/UITableViewCellContentView[0]/UIButton[1])"
                + "&page(ViewController)&aid(buy-button-\(index))" + String(repeating: "x", count: 60)
        }.map { String($0.prefix(200)) }
        let (root, leaf, nodeCount) = makeDeepTree()
        let device = DeviceInfo.current(appVersion: "1.0")
        let slashClicks = ClickProperties(device: device, elements: ElementProperties(pathStyle: .slash))
        let hubbleClicks = ClickProperties(device: device, elements: ElementProperties(pathStyle: .hubble))
        let perClick = BenchmarkHarness().measure([
            .init(name: "element id (200-byte identity)", operationsPerRun: identities.count, bytesPerRun: identities.count * 200) {
                identities.reduce(0) { $0 &+ SHA256.hexDigest($1).utf8.count }
            },
            .init(name: "click properties, slash path", operationsPerRun: 2000, bytesPerRun: 0) {
                var total = 0
                for _ in 0..<2000 { total &+= slashClicks.collect(for: leaf).count }
                return total
            },
            .init(name: "click properties, hubble path", operationsPerRun: 2000, bytesPerRun: 0) {
                var total = 0
                for _ in 0..<2000 { total &+= hubbleClicks.collect(for: leaf).count }
                return total
            },
        ])
        withExtendedLifetime(root) {}
        let ours = sha[0].nanosecondsPerOperation
        let context = [
            "64 MiB of seeded random bytes; digests agree: "
                + (ourDigest == sha256sumDigest && ourDigest == opensslDigest ? "yes" : "NO (\(sha256sumDigest) / \(opensslDigest))"),
            String(format: "AutoTrack / sha256sum: %.2f× the time (goal ≤ 2×); AutoTrack / openssl: %.2f×",
                   ours / sha[1].nanosecondsPerOperation, ours / sha[2].nanosecondsPerOperation),
            "the tools' times include starting the process and reading the file from the page cache",
            "click tree: \(nodeCount) nodes, target 30 levels deep; click = preset + screen + element (content, path, SHA-256 id) + attributes",
            String(format: "per click: %.2f µs (slash), %.2f µs (hubble); goal ≤ 5 µs (paths and ids cached per element until the hierarchy changes)",
                   perClick[1].nanosecondsPerOperation / 1000, perClick[2].nanosecondsPerOperation / 1000),
        ]
        return BenchmarkReport(group: "properties", context: context, sections: [
            .init(title: "SHA-256 over 64 MiB", unit: "run", results: sha, baseline: "sha256sum (coreutils, from file)", showThroughput: true,
                  goals: [sha[0].name: .ratioAtMost(2)]),
            .init(title: "Ids and click properties", unit: "op", results: perClick, baseline: "element id (200-byte identity)",
                  showThroughput: false, goals: [perClick[1].name: .timeAtMost(nanoseconds: 2000), perClick[2].name: .timeAtMost(nanoseconds: 2000)]),
        ])
    }

    /// A 2 000-node tree: a 30-level chain down to a button in a cell, with same- and
    /// other-type siblings at every level.
    private func makeDeepTree() -> (Screen, Element, Int) {
        let screen = Screen("ProductListViewController", title: "Products")
        var node = screen.rootView
        var count = 1
        let filler = ["UIView", "UILabel", "UIImageView", "UIView", "MyBadgeView"]
        for level in 0..<30 {
            for index in 0..<70 where count < 2000 - (30 - level) {
                let sibling = node.addChild(Element(filler[index % filler.count], role: index % 5 == 1 ? .label : .view, text: "s\(index)"))
                _ = sibling
                count += 1
            }
            let role: ElementRole = level == 28 ? .tableCell : (level == 29 ? .button : .view)
            let position = level == 28 ? ListPosition(section: 0, index: 12) : nil
            node = node.addChild(Element(level == 29 ? "UIButton" : "UIView", role: role, text: level == 29 ? "Buy" : nil, listPosition: position))
            count += 1
        }
        return (screen, node, count)
    }

    /// Runs a command and returns its output's first whitespace-separated word.
    private func runTool(_ arguments: [String]) -> [Substring] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return [] }
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: output, as: UTF8.self).split(separator: " ")
    }
}
