import AutoTrackCollector
import AutoTrackEvents
import Foundation
import Testing

/// Whether Sensors Analytics' official Python SDK (`pip install sensorsanalyticssdk`)
/// can be imported; CI installs it.
let sensorsPythonSDKAvailable: Bool = {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", "import sensorsanalytics"]
    process.standardError = FileHandle.nullDevice
    process.standardOutput = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return false }
    process.waitUntilExit()
    return process.terminationStatus == 0
}()

@Suite("The local collector and the official Sensors Analytics Python SDK")
struct SensorsPythonSDKTests {
    @Test("single events (data) and batches (data_list) from sensorsanalyticssdk are decoded, stored once each",
          .enabled(if: sensorsPythonSDKAvailable, "needs `pip install sensorsanalyticssdk` (CI installs it)"))
    func officialClient() throws {
        let collector = try LocalCollector()
        defer { collector.stop() }
        let script = """
            import sensorsanalytics
            url = "\(collector.url.absoluteString)"
            single = sensorsanalytics.SensorsAnalytics(sensorsanalytics.DefaultConsumer(url))
            single.track("user-1", "ViewProduct", {"price": 9.5, "tags": ["a", "b"]}, is_login_id=True)
            single.track("anon-2", "Buy", {"n": 3})
            batch = sensorsanalytics.SensorsAnalytics(sensorsanalytics.BatchConsumer(url, max_size=10))
            batch.track("user-3", "AddToCart", {"sku": "A-1"})
            batch.track("user-3", "Checkout", {"total": 59.9})
            batch.flush()
            batch.close()
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        process.waitUntilExit()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 0, "\(stderr)")
        let names = collector.uniqueEvents.map(\.name.rawValue)
        #expect(names == ["ViewProduct", "Buy", "AddToCart", "Checkout"], "refused: \(collector.refusals)")
        #expect(collector.counts.refused == 0)
        #expect(collector.uniqueEvents.first?.identity.distinctID == "user-1")
        #expect(collector.uniqueEvents.first?.properties["price"] == .number(9.5))
        print("sensorsanalyticssdk: \(names.count) of 4 events decoded; \(collector.counts)")
    }

    @Test("Python's http.client sends a 50 MB body whole, then reads: it gets the 413 and its reason")
    func pythonReadsTheEarly413() throws {
        let collector = try LocalCollector()
        defer { collector.stop() }
        let script = """
            import http.client
            connection = http.client.HTTPConnection("127.0.0.1", \(collector.port), timeout=30)
            connection.request("POST", "/sa", body=b"x" * (50 << 20), headers={"Content-Type": "application/json"})
            response = connection.getresponse()
            print(response.status, response.read().decode())
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 0, "\(stderr)")
        #expect(printed.hasPrefix("413 a body of 52428800 bytes exceeds"), "\(printed)")
    }
}
