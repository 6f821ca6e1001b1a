import AutoTrackConformanceCore
import AutoTrackEvents
import Testing

// The example of the "Exploring a host" article, compiled and run as printed.

/// A counter app: one button whose action counts.
final class CounterWorld {
    let hook: CounterHook?
    var isInstalled = false
    var count = 0
    var recorded = 0
    init(hook: CounterHook?) { self.hook = hook }
}

/// A hook on the counter's button; `recordsTwice` is the bug to find.
struct CounterHook: Sendable {
    var recordsTwice = false
}

enum CounterStep: String, Hashable, Sendable, Codable, CustomStringConvertible {
    case tap, install, uninstall
    var description: String { rawValue }
}

struct CounterHost: ExplorationHost {
    var name: String { "counter app" }

    func makeWorld(subject: CounterHook?) -> CounterWorld { CounterWorld(hook: subject) }

    func generate(length: Int, using random: inout SplitMix64) -> [CounterStep] {
        (0..<length).map { _ in [CounterStep.tap, .tap, .install, .uninstall].randomElement(using: &random)! }
    }

    func perform(_ step: CounterStep, in world: CounterWorld) -> StepRecord {
        let click = InteractionSummary(point: "send-action", properties: ["count \(world.count)"])
        // The specification: a tap while a hook is installed is one click.
        let expected = step == .tap && world.isInstalled ? [ExpectedInteraction(click)] : []
        let before = world.recorded
        switch step {
        case .install: world.isInstalled = world.hook != nil
        case .uninstall: world.isInstalled = false
        case .tap:
            if world.isInstalled, let hook = world.hook { world.recorded += hook.recordsTwice ? 2 : 1 }
            world.count += 1  // the original
        }
        return StepRecord(
            outcome: "ok", transcript: step == .tap ? ["tapped"] : [], observations: ["count \(world.count)"],
            recorded: Array(repeating: click, count: world.recorded - before), expected: expected)
    }

    func name(of subject: CounterHook) -> String { subject.recordsTwice ? "records twice" : "correct" }
}

@Suite("The exploring-a-host article's example")
struct ExploringAHostExampleTests {
    @Test("the correct counter hook passes; the one that records twice is shrunk to install, tap")
    func example() throws {
        let explorer = Explorer(host: CounterHost())
        let results = explorer.explore([CounterHook(), CounterHook(recordsTwice: true)], sessions: 50, seed: 1)
        print(results[1].counterexamples[0].report)
        #expect(results[0].passed)
        let counterexample = try #require(results[1].counterexamples.first)
        #expect(counterexample.steps == [.install, .tap])
        #expect(counterexample.difference.rule == .oneInteraction)
    }
}
