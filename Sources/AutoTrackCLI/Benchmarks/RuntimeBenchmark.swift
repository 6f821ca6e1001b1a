#if AUTOTRACK_OBJC
import AutoTrackObjCBackend
#endif
import AutoTrackRuntime
import Foundation

/// `bench runtime`: the cost of a message send in each dispatch situation a hook
/// creates, against a direct Swift closure call.
struct RuntimeBenchmark {
    static let callsPerRun = 200_000

    func run() -> BenchmarkReport {
        do {
            return try measure()
        } catch {
            return BenchmarkReport(group: "runtime", context: ["setup failed: \(error)"], sections: [])
        }
    }

    /// The receivers of each dispatch situation, built in `runtime`.
    struct Situations {
        let plain, exchanged, subclassed, fastForwarder, slowForwarder: RuntimeObject
    }

    static func situations(in runtime: Runtime) throws -> Situations {
        let run: Selector = "run"
        let body = Implementation("-[Target run]") { _ in .int(1) }
        let target = try runtime.defineClass("Target", methods: [(run, "q@:", body), ("other", "q@:", Implementation("other") { _ in .int(1) })])
        let plain = try runtime.allocate(target)

        // Exchanged: `run` of this class now runs what was `other`, and vice versa.
        let exchangedClass = try runtime.defineClass("Exchanged", methods: [
            (run, "q@:", Implementation("a") { _ in .int(1) }), ("other", "q@:", Implementation("b") { _ in .int(1) }),
        ])
        runtime.exchangeImplementations(
            runtime.method(run, in: exchangedClass)!, runtime.method("other", in: exchangedClass)!)
        let exchanged = try runtime.allocate(exchangedClass)

        // Dynamic subclass: the object is isa-swizzled to a generated subclass.
        let subclassed = try runtime.allocate(target)
        let generated = try runtime.allocateClassPair(superclass: target, name: "autotrack.Target")
        runtime.addMethod(to: generated, Selectors.class, Implementation("class") { _ in .object(target) }, types: "#@:")
        try runtime.registerClassPair(generated)
        runtime.setClass(of: subclassed, to: generated)

        // Forwarding target and invocation forwarding to `plain`.
        let fastForwarder = try runtime.allocate(try runtime.defineClass("FastForwarder", methods: [
            (Selectors.forwardingTarget, "@@::", Implementation("fwd") { _ in .object(plain) }),
        ]))
        let slowForwarder = try runtime.allocate(try runtime.defineClass("SlowForwarder", superclass: runtime.proxyRootClass, methods: [
            (Selectors.methodSignature, "@@::", Implementation("sig") { _ in .value(MethodSignature(typeEncoding: "q@:")) }),
            (Selectors.forwardInvocation, "v@:@", Implementation("inv") { message throws(RuntimeError) in
                let invocation: Invocation = try message.value(at: 0)
                try invocation.invoke(target: plain)
                return .void
            }),
        ]))
        return Situations(plain: plain, exchanged: exchanged, subclassed: subclassed, fastForwarder: fastForwarder, slowForwarder: slowForwarder)
    }

    /// The measurements of each situation's send in `runtime`, names prefixed.
    static func sends(in runtime: Runtime, prefix: String, calls: Int) throws -> [BenchmarkHarness.Variant] {
        let receivers = try situations(in: runtime)
        let run: Selector = "run"
        func sending(_ receiver: RuntimeObject, calls: Int) -> () -> Int {
            {
                var total = 0
                for _ in 0..<calls {
                    if case .int(let value) = (try? runtime.send(receiver, run)) ?? .void { total &+= value }
                }
                return total
            }
        }
        return [
            .init(name: "\(prefix)send, cached", operationsPerRun: calls, bytesPerRun: 0, body: sending(receivers.plain, calls: calls)),
            .init(name: "\(prefix)via an exchanged method", operationsPerRun: calls, bytesPerRun: 0, body: sending(receivers.exchanged, calls: calls)),
            .init(name: "\(prefix)via a dynamic subclass", operationsPerRun: calls, bytesPerRun: 0, body: sending(receivers.subclassed, calls: calls)),
            .init(name: "\(prefix)via forwardingTargetForSelector:", operationsPerRun: calls / 10, bytesPerRun: 0,
                  body: sending(receivers.fastForwarder, calls: calls / 10)),
            .init(name: "\(prefix)via forwardInvocation:", operationsPerRun: calls / 20, bytesPerRun: 0,
                  body: sending(receivers.slowForwarder, calls: calls / 20)),
        ]
    }

    private func measure() throws -> BenchmarkReport {
        let direct: @Sendable () -> Int = { 1 }
        let opaqueDirect = Opaque(direct)
        let calls = Self.callsPerRun
        let harness = BenchmarkHarness()
        let results = harness.measure([
            .init(name: "direct Swift closure call", operationsPerRun: calls, bytesPerRun: 0) {
                var total = 0
                let closure = opaqueDirect.closure
                for _ in 0..<calls { total &+= closure() }
                return total
            },
        ] + (try Self.sends(in: Runtime(), prefix: "", calls: calls)))
        let plainSend = results[1].nanosecondsPerOperation
        var sections: [BenchmarkReport.Section] = [
            .init(title: "One message", unit: "call", results: results, baseline: "direct Swift closure call", showThroughput: false),
        ]
        var context = [
            "\(calls) calls per round for direct and cached sends; median of \(harness.rounds) interleaved rounds",
            String(format: "exchanged / plain send: %.2f×; dynamic subclass / plain send: %.2f× (goal ≤ 1.2×)",
                   results[2].nanosecondsPerOperation / plainSend, results[3].nanosecondsPerOperation / plainSend),
            String(format: "cached send / direct closure: %.1f× (goal ≤ 10×)", plainSend / results[0].nanosecondsPerOperation),
        ]
        if let real = Self.realRuntimeSection(calls: calls, harness: harness) {
            sections.append(real.section)
            context.append(real.summary)
            if let mirrored = try Self.mirroredSection(calls: calls, harness: harness, modelPlainSend: plainSend) {
                sections.append(mirrored.section)
                context.append(mirrored.summary)
            }
        } else {
            context.append("real runtime: not built in (see README: libobjc-12-dev, libgnustep-base-dev, libblocksruntime-dev)")
        }
        return BenchmarkReport(group: "runtime", context: context, sections: sections)
    }

    /// The model's situations on a mirrored runtime: the model's sends, each looked up
    /// by the real runtime and checked against the model's lookup: `nil` when the real
    /// runtime is not built in.
    static func mirroredSection(calls: Int, harness: BenchmarkHarness, modelPlainSend: Double) throws -> (section: BenchmarkReport.Section, summary: String)? {
        #if AUTOTRACK_OBJC
        let results = harness.measure(try sends(in: MirroredRuntime.make(), prefix: "mirror: ", calls: calls))
        let summary = String(format: "mirrored (real lookup, checked against the model's): plain send %.1f× the model's", results[0].nanosecondsPerOperation / modelPlainSend)
        return (.init(title: "One message on a mirrored runtime (the model's sends, the real runtime's lookup)", unit: "call", results: results,
                      baseline: "mirror: send, cached", showThroughput: false), summary)
        #else
        return nil
        #endif
    }

    /// The same situations on the real runtime (GCC libobjc + GNUstep Base), sent as
    /// compiled code sends, measured in the same run: `nil` when it is not built in.
    static func realRuntimeSection(calls: Int, harness: BenchmarkHarness) -> (section: BenchmarkReport.Section, summary: String)? {
        #if AUTOTRACK_OBJC
        let situations: [(ObjCDispatchBenchmark, String, Int)] = [
            (.plainSend, "objc: send, cached", calls),
            (.exchangedMethod, "objc: send through an exchanged method", calls),
            (.dynamicSubclass, "objc: send through a dynamic subclass", calls),
            (.forwardingTarget, "objc: via forwardingTargetForSelector:", calls / 10),
            (.forwardInvocation, "objc: via forwardInvocation:", calls / 20),
        ]
        let results = harness.measure(situations.map { situation, name, count in
            .init(name: name, operationsPerRun: count, bytesPerRun: 0) { situation.send(count: count) }
        })
        let plain = results[0].nanosecondsPerOperation
        let summary = String(
            format: "objc: exchanged / plain send %.2f×, dynamic subclass / plain send %.2f×, forwarding target %.1f×, forwardInvocation %.0f×",
            results[1].nanosecondsPerOperation / plain, results[2].nanosecondsPerOperation / plain,
            results[3].nanosecondsPerOperation / plain, results[4].nanosecondsPerOperation / plain)
        return (.init(title: "One message on the real runtime (GCC libobjc + GNUstep Base)", unit: "call", results: results,
                      baseline: "objc: send, cached", showThroughput: false), summary)
        #else
        return nil
        #endif
    }
}

/// Hides a closure from the optimiser so the direct call is a real indirect call.
final class Opaque: Sendable {
    let closure: @Sendable () -> Int
    @inline(never) init(_ closure: @escaping @Sendable () -> Int) { self.closure = closure }
}
