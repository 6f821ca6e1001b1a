import AutoTrackSampleSession
import AutoTrackSerialization
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

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
            let pickable: Int
        }
        struct Clicked: Decodable {
            let index: Int
            let shownID: String
            let clickID: String
            let pinned: Bool
            let libMethod: String?
        }
        let screens: [Screen]
        let clicked: Clicked
        let inertPinned: Bool
        let searchMatches: Int
        let heatRows: Int
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
        #expect(result.clicked.libMethod == "autoTrack", "the preview is the hooks' click, not a code event")
        #expect(!result.inertPinned, "an element a tap does nothing on cannot be picked")
        let pickable = inspection.screens.map { screen in screen.elements.filter { $0.width > 0 && $0.height > 0 && $0.click != nil }.count }
        #expect(result.screens.map(\.pickable) == pickable)
        #expect(result.screens.first { $0.choice == "list" }!.heat > 0, "the demo's clicks are on the heat map")
        for covering in ["alert", "tabs"] {
            let screen = try #require(inspection.screens.first { $0.choice == covering })
            let beneath = screen.elements.filter { $0.slashPath.contains("ViewController") && $0.click != nil && $0.clickScreen == "ViewController" }
            #expect(beneath.isEmpty, "\(covering): the list under the presentation is not pickable, so its clicks are not counted again")
        }
        // The heat list counts each click once: as many as the demo's $AppClicks.
        let demoClicks = try String(contentsOfFile: events, encoding: .utf8).split(separator: "\n").filter { $0.contains("\"event\":\"$AppClick\"") }.count
        let heat = ClickHeat(events: try EventJSONDecoder().decodeNDJSON(from: Array(try Data(contentsOf: URL(fileURLWithPath: events)))))
        #expect(heat.entries.map(\.count).reduce(0, +) == demoClicks)
        #expect(result.heatRows == heat.entries.count)

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

@Suite("autotrack inspect with hostile text in every field")
struct InspectHostileTextTests {
    /// Text that breaks out of a script element, an HTML comment, a string or a line.
    static func hostile(_ field: String) -> String {
        "<!--<script>\(field)</script><img src=x onerror=\"document.title='pwned'\">\u{2028}\u{2029}&amp;'\"]]>"
    }

    @Test("content, path, id, screen, title, type and file name are shown as text; the page's own script still runs",
          .enabled(if: chromium != nil, "needs Debian's chromium (apt-get install chromium; CI installs it)"))
    func hostileFields() throws {
        let browser = try #require(chromium)
        var inspection = try ScreenInspection.make()
        inspection.screens = inspection.screens.map { screen in
            var screen = screen
            screen.screenName = Self.hostile("screen")
            screen.title = Self.hostile("title")
            screen.elements = screen.elements.enumerated().map { index, element in
                var element = element
                element.type = Self.hostile("type \(index)")
                if element.content != nil { element.content = Self.hostile("content \(index)") }
                element.slashPath = Self.hostile("path \(index)")
                element.hubblePath = Self.hostile("hubble path \(index)")
                element.slashID = Self.hostile("id \(index)")
                element.hubbleID = Self.hostile("hubble id \(index)")
                let click = ["$element_id": element.slashID, "$element_content": element.content ?? "", "$screen_name": screen.screenName]
                let json = String(decoding: (try? JSONSerialization.data(withJSONObject: ["properties": click], options: [.sortedKeys])) ?? Data(), as: UTF8.self)
                element.click = json
                return element
            }
            return screen
        }
        let heat = ClickHeat(entries: inspection.screens[0].elements.map { element in
            ClickHeat.Entry(
                screenName: inspection.screens[0].screenName, elementID: element.slashID, type: element.type, content: element.content,
                path: element.slashPath, count: 1)
        })
        for index in inspection.screens.indices {
            for element in inspection.screens[index].elements.indices where inspection.screens[index].elements[element].click != nil {
                inspection.screens[index].elements[element].clickScreen = inspection.screens[index].screenName
            }
        }
        let html = try InspectPage.html(inspection, heat: heat, source: Self.hostile("events file"))
        #expect(!html.contains("<!--<script>"), "no hostile markup in the page's source")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("autotrack-inspect-hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let page = directory.appendingPathComponent("index.html")
        try html.write(to: page, atomically: true, encoding: .utf8)
        let dom = try run(browser, [
            "--headless", "--no-sandbox", "--disable-gpu", "--virtual-time-budget=5000", "--dump-dom", "file://\(page.path)#selftest",
        ]).output
        let start = try #require(dom.range(of: "<pre id=\"selftest-result\">"), "the page's own script ran its self-check")
        let end = try #require(dom.range(of: "</pre>", range: start.upperBound..<dom.endIndex))
        let text = String(dom[start.upperBound..<end.lowerBound])
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&lt;", with: "<")
            .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
        let result = try JSONDecoder().decode(InspectBrowserTests.SelfTest.self, from: Data(text.utf8))
        let expected = inspection.screens.map { screen in screen.elements.filter { $0.width > 0 && $0.height > 0 }.count }
        #expect(result.screens.map(\.drawn) == expected, "every element drawn")
        let picked = inspection.screens[0].elements[result.clicked.index]
        #expect(result.clicked.shownID == picked.slashID, "the hostile id is shown as it is, as text")
        #expect(result.clicked.clickID == picked.slashID)
        #expect(!dom.contains("<title>pwned</title>"), "no injected handler ran")
        #expect(!dom.contains("<img src=\"x\""), "no injected element")
    }
}

@Suite("autotrack inspect --serve: the live session in a real browser")
struct LiveInspectBrowserTests {
    @Test("the page follows the session: steps performed through POST /step reach it over server-sent events and change the screen it shows",
          .enabled(if: chromium != nil, "needs Debian's chromium (apt-get install chromium; CI installs it)"))
    func livePage() throws {
        let browser = try #require(chromium)
        try #require(FileManager.default.isExecutableFile(atPath: autotrackExecutable.path), "build the autotrack product first")
        let server = Process()
        server.executableURL = autotrackExecutable
        server.arguments = ["inspect", "--serve", "--port", "0"]
        let output = Pipe()
        server.standardOutput = output
        server.standardError = FileHandle.nullDevice
        try server.run()
        defer {
            // SIGKILL: a child started from a thread that blocks signals may block SIGTERM.
            kill(server.processIdentifier, SIGKILL)
            server.waitUntilExit()
        }
        // The first line names the port; read until it is whole.
        var banner: [UInt8] = []
        var byte: UInt8 = 0
        while banner.last != 0x0A, read(output.fileHandleForReading.fileDescriptor, &byte, 1) == 1 { banner.append(byte) }
        let line = String(decoding: banner, as: UTF8.self)
        let port = try #require(line.split(separator: ":").dropFirst(2).first.flatMap { Int($0.prefix { $0.isNumber }) }, "\(line)")
        let dom = try run(browser, [
            "--headless", "--no-sandbox", "--disable-gpu", "--virtual-time-budget=10000", "--dump-dom", "http://127.0.0.1:\(port)/#selftest-live",
        ]).output
        let start = try #require(dom.range(of: "<pre id=\"selftest-result\">"), "the live page ran its self-check")
        let end = try #require(dom.range(of: "</pre>", range: start.upperBound..<dom.endIndex))
        let text = String(dom[start.upperBound..<end.lowerBound]).replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&amp;", with: "&")
        struct Live: Decodable {
            let before: String
            let after: String
            let updates: Int
            let step: String?
            let drawn: Int
            let heatRows: Int
        }
        let live = try JSONDecoder().decode(Live.self, from: Data(text.utf8))
        #expect(live.before == "ViewController")
        #expect(live.after == "SettingsViewController", "a step that opens Settings changed what the page shows")
        #expect(live.updates >= 2, "the state at connection, then one per step")
        #expect(live.step?.contains("open Settings") == true)
        #expect(live.drawn > 0 && live.heatRows > 0, "the session's clicks so far are on the heat list")
        print("inspect --serve in chromium: \(live.before) → \(live.after) after \(live.updates) updates; \(live.heatRows) heat rows")
    }
}
