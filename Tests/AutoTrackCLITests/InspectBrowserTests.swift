import AutoTrackSampleSession
import Foundation
import Testing

/// The `autotrack` executable built next to the test bundle.
let autotrackExecutable = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("autotrack")

/// Debian's headless Chromium, when installed (CI installs it).
let chromium: String? = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first { FileManager.default.isExecutableFile(atPath: $0) }

/// Runs a program; its standard output.
@discardableResult
func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    try process.run()
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationStatus, output)
}

@Suite("autotrack inspect in a real browser")
struct InspectBrowserTests {
    struct SelfTest: Decodable {
        struct Screen: Decodable {
            let choice: String
            let drawn: Int
            let heat: Int
        }
        struct Clicked: Decodable {
            let index: Int
            let shownID: String
            let clickID: String
            let pinned: Bool
        }
        let screens: [Screen]
        let clicked: Clicked
        let searchMatches: Int
    }

    @Test("headless Chromium draws every element of every screen, shows a picked element's id and click, and the heat map",
          .enabled(if: chromium != nil, "needs Debian's chromium (apt-get install chromium; CI installs it)"))
    func pageInBrowser() throws {
        let browser = try #require(chromium)
        try #require(FileManager.default.isExecutableFile(atPath: autotrackExecutable.path), "build the autotrack product first")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("autotrack-inspect-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(try run(autotrackExecutable.path, ["demo", "--out", directory.appendingPathComponent("demo").path]).status == 0)
        let events = directory.appendingPathComponent("demo/events.ndjson").path
        #expect(try run(autotrackExecutable.path, ["inspect", "--out", directory.path, "--events", events]).status == 0)
        let page = directory.appendingPathComponent("index.html")
        let html = try String(contentsOf: page, encoding: .utf8)
        #expect(!html.contains("http://") && !html.contains("https://"), "self-contained: no network")

        let dom = try run(browser, [
            "--headless", "--no-sandbox", "--disable-gpu", "--virtual-time-budget=5000", "--dump-dom", "file://\(page.path)#selftest",
        ]).output
        let start = try #require(dom.range(of: "<pre id=\"selftest-result\">"), "the page ran its self-check")
        let end = try #require(dom.range(of: "</pre>", range: start.upperBound..<dom.endIndex))
        let text = String(dom[start.upperBound..<end.lowerBound]).replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&amp;", with: "&")
        let result = try JSONDecoder().decode(SelfTest.self, from: Data(text.utf8))

        let inspection = try ScreenInspection.make()
        let expected = inspection.screens.map { screen in (screen.choice, screen.elements.filter { $0.width > 0 && $0.height > 0 }.count) }
        #expect(result.screens.map(\.choice) == expected.map(\.0))
        #expect(result.screens.map(\.drawn) == expected.map(\.1), "every element drawn")
        let picked = inspection.screens[0].elements[result.clicked.index]
        #expect(result.clicked.shownID == picked.slashID, "the id shown is the snapshot's")
        #expect(result.clicked.clickID == picked.slashID, "the $AppClick shown carries it")
        #expect(result.clicked.pinned)
        #expect(result.searchMatches >= 1, "search by id finds it")
        #expect(result.screens.first { $0.choice == "list" }!.heat > 0, "the demo's clicks are on the heat map")

        let screenshot = directory.appendingPathComponent("inspect.png")
        try run(browser, ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--window-size=1280,900",
                          "--screenshot=\(screenshot.path)", "file://\(page.path)"])
        let png = try Data(contentsOf: screenshot)
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]), "a PNG screenshot")
        let kept = FileManager.default.temporaryDirectory.appendingPathComponent("autotrack-inspect.png")
        try? FileManager.default.removeItem(at: kept)
        try FileManager.default.copyItem(at: screenshot, to: kept)
        print("inspect in chromium: drawn \(result.screens.map { "\($0.choice) \($0.drawn)" }.joined(separator: ", ")); "
              + "picked \(picked.type) \(picked.slashID.prefix(12))…; heat cells \(result.screens.map(\.heat).reduce(0, +)); screenshot \(kept.path)")
    }
}
