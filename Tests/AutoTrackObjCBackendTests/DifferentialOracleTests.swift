import AutoTrackRuntimeOracle
import Foundation
import Testing

/// The real runtime is the oracle: random programs of runtime operations run on the
/// model and on GCC's libobjc with GNUstep Base must show the same thing at every step.
@Suite struct DifferentialOracleTests {
    @Test("a run that ends early differs at its first missing operation, whatever the other runtime observed there")
    func shorterRun() throws {
        let model: [Observation] = [.added(true), .setClass]
        let real: [Observation] = [.added(true)]
        let difference = try #require(DifferentialOracle.firstDifference(model, real))
        #expect(difference.index == 1)
        #expect(difference.model == .setClass)
        #expect(difference.real == .missing)
        #expect(DifferentialOracle.firstDifference(real, real) == nil)
        #expect(DifferentialOracle.firstDifference([], [.overridden])?.index == 0)
    }

    @Test("in this process: 300 programs agree operation by operation")
    func agreementInProcess() {
        let report = DifferentialOracle.run(programs: 300, seed: 90_001)
        #expect(report.programs == 300)
        #expect(report.sends > 600)
        for divergence in report.divergences.prefix(3) { Issue.record("\(divergence)") }
        #expect(report.divergences.isEmpty)
    }

    @Test("classes made mid-program see what was done to their superclasses before: exchanged, replaced and set implementations, on both runtimes")
    func classesMadeMidProgram() throws {
        // C0 : NSObject, o0 of C0; C1 : C0 and C2 : C1 made mid-program.
        let program = RuntimeProgram(
            superclasses: [nil, 0, 1], lateClassCount: 2, objectClasses: [0],
            operations: [
                .addMethod(cls: 0, selector: 0, implementation: .plain(1)),
                .addMethod(cls: 0, selector: 1, implementation: .plain(2)),
                .send(object: 0, selector: 0),
                .exchange(firstClass: 0, firstSelector: 0, secondClass: 0, secondSelector: 1),
                .registerClass(cls: 1),
                .setClass(object: 0, cls: 1),
                .send(object: 0, selector: 0),                             // the exchanged IMP: p2
                .setImplementation(cls: 0, selector: 1, implementation: .plain(3)),
                .send(object: 0, selector: 1),                             // p3, through C1's table
                .addMethod(cls: 2, selector: 2, implementation: .callingSuper(0)), // names C2: made here
                .registerClass(cls: 2),                                    // made already
                .setClass(object: 0, cls: 2),
                .send(object: 0, selector: 2),                             // s0, then super from C0: raises
                .replaceMethod(cls: 1, selector: 0, implementation: .plain(4)),
                .send(object: 0, selector: 0),                             // C1's own p4, inherited by C2
                .sendToClass(cls: 2, selector: 3),
            ])
        let (model, real) = DifferentialOracle.compare(program)
        #expect(DifferentialOracle.firstDifference(model, real) == nil, "model \(model)\nreal \(real)")
        #expect(model[4] == .registered(true))
        #expect(model[10] == .registered(false))
        #expect(model[6] == .sent(trace: [RuntimeProgram.Implementation.plain(2).traceEntry], raised: false))
        #expect(model[8] == .sent(trace: [RuntimeProgram.Implementation.plain(3).traceEntry], raised: false))
        #expect(model[14] == .sent(trace: [RuntimeProgram.Implementation.plain(4).traceEntry], raised: false))
        // Random programs make classes mid-program too (a third of them).
        let late = (0..<300).map { DifferentialOracle.program(seed: UInt64($0)) }.filter { $0.lateClassCount > 0 }
        #expect(late.count > 50)
        #expect(late.allSatisfy { program in program.operations.contains { if case .registerClass = $0 { true } else { false } } })
    }

    @Test("-class overrides report what they return, inherited and across isa swizzles, on both runtimes")
    func classOverrides() throws {
        // C0 : NSObject, C1 : C0, C2 : NSObject made mid-program; o0 of C1, o1 of C0.
        let program = RuntimeProgram(
            superclasses: [nil, 0, nil], lateClassCount: 1, objectClasses: [1, 0],
            operations: [
                .reportedClass(object: 0),                  // C1
                .overrideClass(cls: 0, reports: 2),         // names C2: made here
                .reportedClass(object: 0),                  // inherited: C2
                .reportedClass(object: 1),                  // C2
                .overrideClass(cls: 1, reports: 1),
                .reportedClass(object: 0),                  // C1's own: C1
                .setClass(object: 1, cls: 2),
                .reportedClass(object: 1),                  // C2, no override: C2
                .setClass(object: 0, cls: 0),
                .reportedClass(object: 0),                  // C0's override: C2
                .send(object: 0, selector: 0),              // still C0's methods: raises
            ])
        let (model, real) = DifferentialOracle.compare(program)
        #expect(DifferentialOracle.firstDifference(model, real) == nil, "model \(model)\nreal \(real)")
        #expect([0, 2, 3, 5, 7, 9].map { model[$0] } == [.reports(1), .reports(2), .reports(2), .reports(1), .reports(2), .reports(2)])
        let overriding = (0..<400).map { DifferentialOracle.program(seed: UInt64($0)) }
            .filter { $0.operations.contains { if case .overrideClass = $0 { true } else { false } } }
        #expect(overriding.count > 20)
        #expect(overriding.allSatisfy { !$0.operations.contains { if case .observe = $0 { true } else { false } } })
    }

    @Test("classes rooted at NSProxy: own and inherited methods, super sends to NSProxy, forwarding and -class, on both runtimes")
    func proxyRootedClasses() throws {
        // C0 : NSProxy, C1 : C0, C2 : NSObject; o0 of C1 (allocated, as proxies are), o1 of C2.
        let program = RuntimeProgram(
            superclasses: [nil, 0, nil], proxyRoots: [0], objectClasses: [1, 2],
            operations: [
                .send(object: 0, selector: 0),                                         // nothing: NSProxy raises
                .addMethod(cls: 0, selector: 0, implementation: .plain(1)),
                .send(object: 0, selector: 0),                                         // inherited p1
                .addMethod(cls: 1, selector: 1, implementation: .callingSuper(5)),
                .send(object: 0, selector: 1),                                         // s5, then super: raises
                .exchange(firstClass: 0, firstSelector: 0, secondClass: 2, secondSelector: 0),
                .addMethod(cls: 2, selector: 0, implementation: .plain(2)),
                .exchange(firstClass: 0, firstSelector: 0, secondClass: 2, secondSelector: 0),
                .send(object: 0, selector: 0),                                         // p2, from the NSObject class
                .send(object: 1, selector: 0),                                         // p1
                .addMethod(cls: 1, selector: RuntimeProgram.forwardingSelector, implementation: .forwarding(1)),
                .send(object: 0, selector: 2),                                         // forwarded to o1: raises there
                .reportedClass(object: 0),                                             // C1
                .setClass(object: 0, cls: 0),
                .reportedClass(object: 0),                                             // C0
                .sendToClass(cls: 1, selector: 3),
            ])
        #expect(program.isProxyRooted(1) && !program.isProxyRooted(2))
        #expect(program.description.hasPrefix("C0 : NSProxy\nC1 : C0\nC2 : NSObject\no0 = [C1 alloc]"))
        let (model, real) = DifferentialOracle.compare(program)
        #expect(DifferentialOracle.firstDifference(model, real) == nil, "model \(model)\nreal \(real)")
        #expect(model[0] == .sent(trace: [], raised: true))
        #expect(model[2] == .sent(trace: [RuntimeProgram.Implementation.plain(1).traceEntry], raised: false))
        #expect(model[8] == .sent(trace: [RuntimeProgram.Implementation.plain(2).traceEntry], raised: false))
        #expect(model[12] == .reports(1) && model[14] == .reports(0))
        // A quarter of random programs' root classes descend from NSProxy; their objects
        // are never observed, asked respondsToSelector: (a pinned difference) or moved to
        // the other root.
        let programs = (0..<600).map { DifferentialOracle.program(seed: UInt64($0)) }
        let withProxies = programs.filter { !$0.proxyRoots.isEmpty }
        #expect(withProxies.count > 100)
        for program in withProxies {
            for operation in program.operations {
                switch operation {
                case .observe(let object), .respondsTo(let object, _):
                    #expect(!program.isProxyRooted(program.objectClasses[object]), "\(program)")
                case .setClass(let object, let cls):
                    #expect(program.isProxyRooted(program.objectClasses[object]) == program.isProxyRooted(cls), "\(program)")
                default: break
                }
            }
        }
    }

    @Test("programs are reproducible from their seed, and print as a test case")
    func reproducible() {
        #expect(DifferentialOracle.program(seed: 7) == DifferentialOracle.program(seed: 7))
        #expect(DifferentialOracle.program(seed: 7) != DifferentialOracle.program(seed: 8))
        let text = DifferentialOracle.program(seed: 7).description
        #expect(text.hasPrefix("C0 : NSObject") || text.hasPrefix("C0 : NSProxy"))
        #expect(text.contains("o0 = [C"))
    }

    /// The `autotrack` executable, built next to the test bundle.
    static let executable = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("autotrack")

    struct Summary: Decodable {
        struct Crash: Decodable {
            let seed: UInt64
            let termination: String
            let program: String
        }
        let programs: Int
        let sends: Int
        let divergences: [String]
        let crashes: [Crash]
    }

    /// Runs `autotrack oracle` with `arguments`: its exit status and JSON summary.
    static func oracle(_ arguments: [String]) throws -> (Int32, Summary) {
        let json = FileManager.default.temporaryDirectory.appendingPathComponent("oracle-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: json) }
        let process = Process()
        process.executableURL = executable
        process.arguments = ["oracle"] + arguments + ["--json", json.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return (process.terminationStatus, try JSONDecoder().decode(Summary.self, from: Data(contentsOf: json)))
    }

    @Test("10 000 programs in worker processes: no divergence, no crash")
    func tenThousandPrograms() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.executable.path), "build the autotrack product first (swift build)")
        let (status, summary) = try Self.oracle(["--programs", "10000", "--seed", "1"])
        #expect(summary.programs == 10_000)
        #expect(summary.sends > 30_000)
        #expect(summary.divergences.isEmpty, "\(summary.divergences.prefix(3))")
        #expect(summary.crashes.isEmpty)
        #expect(status == 0)
    }

    @Test("a program that crashes the real runtime is reported with its seed and signal, and the run goes on")
    func crashIsolation() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.executable.path), "build the autotrack product first (swift build)")
        let (status, summary) = try Self.oracle(["--programs", "40", "--seed", "1", "--crash-seed", "17", "--workers", "1"])
        #expect(status == 1)
        let crash = try #require(summary.crashes.first)
        #expect(summary.crashes.count == 1)
        #expect(crash.seed == 17)
        #expect(crash.termination.contains("SIGSEGV"))
        #expect(crash.program == DifferentialOracle.program(seed: 17).description)
        #expect(summary.programs == 40, "the programs before and after it ran too")
        #expect(summary.divergences.isEmpty)
    }
}

@Suite("Documentation examples: the oracle")
struct OracleExampleTests {
    @Test("the overview's example runs as printed and finds no divergence")
    func overviewExample() {
        let report = DifferentialOracle.run(programs: 300, seed: 42)
        print(report.programs, report.sends, report.divergences.count)
        #expect(report.programs == 300)
        #expect(report.divergences.isEmpty)
    }
}
