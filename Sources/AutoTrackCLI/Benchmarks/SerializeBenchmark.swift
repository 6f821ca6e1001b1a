import AutoTrackEvents
import AutoTrackSerialization
import Foundation

/// `bench serialize`: our encoder against `JSONEncoder` and `JSONSerialization` on the
/// same events, after checking that all three produce equal JSON values; then the
/// Sensors form body build and our decoder.
struct SerializeBenchmark {
    let events = RealisticEventCorpus.make(count: 1000)

    func run() -> BenchmarkReport {
        let encoder = EventJSONEncoder()
        let jsonEncoder = JSONEncoder()
        let formatter = makeCollectorDateFormatter()
        jsonEncoder.dateEncodingStrategy = .formatted(formatter)
        let mirrors = events.map(CodableEventMirror.init)

        let agreement = checkAgreement(encoder: encoder, jsonEncoder: jsonEncoder, formatter: formatter)
        let ourBytes = events.reduce(0) { $0 + encoder.encode($1).count }
        let propertyCounts = events.map(\.properties.count)

        let harness = BenchmarkHarness()
        let encoding = harness.measure([
            .init(name: "AutoTrack EventJSONEncoder", operationsPerRun: events.count, bytesPerRun: ourBytes) {
                var total = 0
                for event in events { total &+= encoder.encode(event).count }
                return total
            },
            .init(name: "Foundation JSONEncoder (Codable)", operationsPerRun: events.count, bytesPerRun: ourBytes) {
                var total = 0
                for mirror in mirrors { total &+= (try? jsonEncoder.encode(mirror))?.count ?? 0 }
                return total
            },
            .init(name: "Foundation JSONSerialization", operationsPerRun: events.count, bytesPerRun: ourBytes) {
                var total = 0
                for event in events {
                    let object = foundationObject(of: event, dateFormatter: formatter)
                    total &+= (try? JSONSerialization.data(withJSONObject: object))?.count ?? 0
                }
                return total
            },
        ])

        let batches = stride(from: 0, to: events.count, by: 50).map { Array(events[$0..<min($0 + 50, events.count)]) }
        let batchJSONBytes = batches.reduce(0) { $0 + encoder.encodeBatch($1).count }
        let encodedBatches = batches.map { encoder.encodeBatch($0) }
        let bodies = batches.map { (try? SensorsFormBody.encode($0).body) ?? [] }
        let bodyBytes = bodies.reduce(0) { $0 + $1.count }
        let decoder = EventJSONDecoder()
        let wire = harness.measure([
            .init(name: "JSON array batch (50 events)", operationsPerRun: batches.count, bytesPerRun: batchJSONBytes) {
                batches.reduce(0) { $0 &+ encoder.encodeBatch($1).count }
            },
            .init(name: "Sensors form body (50 events)", operationsPerRun: batches.count, bytesPerRun: batchJSONBytes) {
                batches.reduce(0) { $0 &+ ((try? SensorsFormBody.encode($1).body.count) ?? 0) }
            },
            .init(name: "Decode JSON batch (50 events)", operationsPerRun: batches.count, bytesPerRun: batchJSONBytes) {
                encodedBatches.reduce(0) { $0 &+ ((try? decoder.decodeBatch(from: $1).count) ?? 0) }
            },
            .init(name: "Decode Sensors form body", operationsPerRun: batches.count, bytesPerRun: batchJSONBytes) {
                bodies.reduce(0) { $0 &+ ((try? SensorsFormBody.decode($1).count) ?? 0) }
            },
        ])

        let context = [
            "corpus: \(events.count) realistic events, \(propertyCounts.min()!)–\(propertyCounts.max()!) properties "
                + "(mean \(propertyCounts.reduce(0, +) / propertyCounts.count)), mean \(ourBytes / events.count) bytes compact",
            "equal JSON values: \(agreement)",
            "Sensors body: \(batchJSONBytes) JSON bytes → \(bodyBytes) body bytes "
                + "(\(String(format: "%.1f", Double(batchJSONBytes) / Double(bodyBytes)))× smaller); MB/s counts JSON input",
            "median of \(harness.rounds) interleaved rounds; time ratio > 1 means slower than the baseline",
        ]
        return BenchmarkReport(group: "serialize", context: context, sections: [
            .init(title: "Encoding one event", unit: "event", results: encoding,
                  baseline: "AutoTrack EventJSONEncoder", showThroughput: true),
            .init(title: "Batches and wire bodies", unit: "batch", results: wire,
                  baseline: "JSON array batch (50 events)", showThroughput: true),
        ])
    }

    /// Parses all three outputs with our exact parser and compares them as JSON values
    /// (objects unordered, integers equal to the same-valued double).
    private func checkAgreement(encoder: EventJSONEncoder, jsonEncoder: JSONEncoder, formatter: DateFormatter) -> String {
        let parser = JSONParser()
        var mismatches = 0
        for event in events {
            guard let ours = try? parser.parse(encoder.encode(event)),
                  let codable = try? parser.parse(Array((try? jsonEncoder.encode(CodableEventMirror(event: event))) ?? Data())),
                  let serialized = try? parser.parse(Array((try? JSONSerialization.data(
                      withJSONObject: foundationObject(of: event, dateFormatter: formatter))) ?? Data()))
            else {
                mismatches += 1
                continue
            }
            if !ours.isSemanticallyEqual(to: codable) || !ours.isSemanticallyEqual(to: serialized) { mismatches += 1 }
        }
        return mismatches == 0 ? "yes, all \(events.count) events" : "NO — \(mismatches) events differ"
    }
}

extension JSONValue {
    /// Equality as JSON values: object members compared by key regardless of order,
    /// an integer equal to a number of the same value.
    func isSemanticallyEqual(to other: JSONValue) -> Bool {
        switch (self, other) {
        case (.object(let left), .object(let right)):
            guard left.count == right.count else { return false }
            let rightByKey = Dictionary(right.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
            return left.allSatisfy { member in rightByKey[member.key].map { member.value.isSemanticallyEqual(to: $0) } ?? false }
        case (.array(let left), .array(let right)):
            return left.count == right.count && zip(left, right).allSatisfy { $0.isSemanticallyEqual(to: $1) }
        case (.integer(let integer), .number(let number)), (.number(let number), .integer(let integer)):
            return Double(integer) == number
        default:
            return self == other
        }
    }
}
