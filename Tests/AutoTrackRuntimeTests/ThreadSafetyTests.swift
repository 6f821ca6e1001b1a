import AutoTrackRuntime
import Dispatch
import Foundation
import Synchronization
import Testing

@Suite("Thread safety: sends racing with method-list and implementation changes")
struct ThreadSafetyTests {
    @Test("for two seconds, 4 sending threads race 3 threads adding, exchanging and replacing: every call runs a known implementation exactly once")
    func raceForTwoSeconds() throws {
        let runtime = Runtime()
        let run: Selector = "run"
        let alternate: Selector = "alternate"
        let counters = (0..<4).map { _ in Counter() }
        func counting(_ index: Int) -> Implementation {
            Implementation("impl\(index)") { _ in
                counters[index].value.add(1, ordering: .relaxed)
                return .int(index)
            }
        }
        let implementations = (0..<4).map(counting)
        let base = try runtime.defineClass("Base", methods: [(run, "q@:", implementations[0]), (alternate, "q@:", implementations[1])])
        let middle = try runtime.defineClass("Middle", superclass: base)
        let leaf = try runtime.defineClass("Leaf", superclass: middle)
        let objects = try [base, middle, leaf].map { try runtime.allocate($0) }

        let stop = Atomic<Bool>(false)
        let sent = Atomic<Int>(0)
        let unknown = Atomic<Int>(0)
        let errors = Atomic<Int>(0)
        let changes = Atomic<Int>(0)
        // Real threads, not a dispatch queue: GCD would not start writer threads while
        // the spinning senders occupy both cores.
        let group = DispatchGroup()
        func spawn(_ body: @escaping @Sendable () -> Void) {
            group.enter()
            let thread = Thread {
                body()
                group.leave()
            }
            thread.start()
        }

        for thread in 0..<4 {
            spawn {
                var index = thread
                while !stop.load(ordering: .relaxed) {
                    index &+= 1
                    do {
                        let result = try runtime.send(objects[index % 3], index % 2 == 0 ? run : alternate)
                        guard case .int(let which) = result, (0..<4).contains(which) else {
                            unknown.add(1, ordering: .relaxed)
                            continue
                        }
                        sent.add(1, ordering: .relaxed)
                    } catch {
                        errors.add(1, ordering: .relaxed)
                    }
                }
            }
        }
        spawn { // exchanger
            while !stop.load(ordering: .relaxed) {
                if let first = runtime.method(run, in: base), let second = runtime.method(alternate, in: base) {
                    runtime.exchangeImplementations(first, second)
                    changes.add(1, ordering: .relaxed)
                }
            }
        }
        spawn { // replacer
            var flip = 0
            while !stop.load(ordering: .relaxed) {
                flip &+= 1
                runtime.replaceMethod(in: middle, flip % 2 == 0 ? run : alternate, implementations[2 + flip % 2], types: "q@:")
                changes.add(1, ordering: .relaxed)
            }
        }
        spawn { // adder: new selectors on the leaf, which empties caches below
            var number = 0
            while !stop.load(ordering: .relaxed), number < 20_000 {
                number += 1
                runtime.addMethod(to: leaf, Selector("extra\(number)"), implementations[3], types: "q@:")
                if number % 500 == 0 { runtime.addMethod(to: middle, Selector("middle\(number)"), implementations[3], types: "q@:") }
                changes.add(1, ordering: .relaxed)
            }
        }
        // Runs until both sides did a set amount of work — not for a set time, so a
        // loaded machine only makes it slower (the ceiling is far beyond need).
        let ceiling = ContinuousClock.now + .seconds(300)
        while sent.load(ordering: .relaxed) <= 50_000 || changes.load(ordering: .relaxed) <= 5_000, ContinuousClock.now < ceiling {
            Thread.sleep(forTimeInterval: 0.01)
        }
        stop.store(true, ordering: .relaxed)
        group.wait()

        let ran = counters.reduce(0) { $0 + $1.value.load(ordering: .relaxed) }
        #expect(errors.load(ordering: .relaxed) == 0)
        #expect(unknown.load(ordering: .relaxed) == 0)
        #expect(sent.load(ordering: .relaxed) > 10_000, "the senders made progress")
        #expect(changes.load(ordering: .relaxed) > 1_000, "the writers made progress")
        #expect(ran == sent.load(ordering: .relaxed), "each call ran exactly one implementation once")
    }
}

final class Counter: Sendable {
    let value = Atomic<Int>(0)
}
