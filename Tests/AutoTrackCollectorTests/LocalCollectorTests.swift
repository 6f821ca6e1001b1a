import AutoTrackCollector
import AutoTrackEvents
import AutoTrackSerialization
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

@Suite("The local collector")
struct LocalCollectorTests {
    func event(_ id: Int64) -> Event {
        Event(id: EventID(rawValue: id)!, name: .appClick, time: Timestamp(millisecondsSince1970: 1), identity: .anonymous("d"), properties: ["n": .integer(id)])
    }

    func post(_ body: [UInt8], to url: URL, contentType: String) throws -> Int {
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.setValue(contentType, forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(body)
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var status = 0
        URLSession.shared.dataTask(with: request) { _, response, _ in
            status = (response as? HTTPURLResponse)?.statusCode ?? -1
            done.signal()
        }.resume()
        done.wait()
        return status
    }

    @Test("accepts both wire formats, decodes and records; scripted statuses are answered", arguments: CollectorWireFormat.allCases)
    func formats(format: CollectorWireFormat) throws {
        let collector = try LocalCollector { $0 == 2 ? .status(503) : .accept }
        defer { collector.stop() }
        let events = (1...3).map { event(Int64($0)) }
        #expect(try post(try format.body(for: events), to: collector.url, contentType: format.contentType) == 200)
        #expect(try post(try format.body(for: events), to: collector.url, contentType: format.contentType) == 503)
        #expect(collector.events == events)
        #expect(collector.requestCount == 2)
    }
}
