import AutoTrackRuntime
import AutoTrackLocking

/// Runs a ``RuntimeProgram`` on the package's model of Objective-C dispatch, in a
/// fresh `Runtime` per program.
enum ModelExecution {
    /// The trace of one send, with the real runtime's limit.
    final class Trace: Sendable {
        private let entries = Locked<[Int]>([])
        static let limit = 48
        static let cut = 9999

        /// Writes `entry`; `false` (after writing the cut marker once) when full.
        func record(_ entry: Int) -> Bool {
            entries.withLock { entries in
                if entries.count >= Self.limit {
                    if entries.count == Self.limit { entries.append(Self.cut) }
                    return false
                }
                entries.append(entry)
                return true
            }
        }

        func reset() { entries.withLock { $0.removeAll() } }
        var current: [Int] { entries.withLock { $0 } }
    }

    /// Counts key-value notifications.
    final class Counter: Sendable {
        private let count = Locked(0)
        func add() { count.withLock { $0 += 1 } }
        var value: Int { count.withLock { $0 } }
    }

    /// The program's objects, for forwarding implementations to return.
    final class Objects: Sendable {
        let all = Locked<[RuntimeObject]>([])
    }

    static func run(_ program: RuntimeProgram) -> [Observation] {
        let runtime = Runtime()
        let trace = Trace()
        let objects = Objects()
        var classes: [RuntimeClass?] = Array(repeating: nil, count: program.superclasses.count)
        /// Class `index`, made (with its superclasses) when first named.
        func classAt(_ index: Int) -> RuntimeClass {
            if let existing = classes[index] { return existing }
            let superclass = program.superclasses[index]
            // A fresh runtime per program: names cannot collide and classes register.
            let parent = superclass.map { classAt($0) } ?? (program.proxyRoots.contains(index) ? runtime.proxyRootClass : runtime.rootClass)
            let created = try! runtime.allocateClassPair(superclass: parent, name: "C\(index)")
            if superclass == nil {
                runtime.addMethod(to: created, Selector(RuntimeProgram.setter), Implementation("setter") { _ in
                    _ = trace.record(400)
                    return .void
                }, types: "v@:@")
            }
            try! runtime.registerClassPair(created)
            classes[index] = created
            return created
        }
        for index in 0..<program.earlyClassCount { _ = classAt(index) }
        let instances = program.objectClasses.map { try! runtime.allocate(classAt($0)) }
        objects.all.withLock { $0 = instances }

        var implementations: [RuntimeProgram.Implementation: Implementation] = [:]
        var entries: [ObjectIdentifier: Int] = [:]
        func implementation(_ choice: RuntimeProgram.Implementation) -> Implementation {
            if let existing = implementations[choice] { return existing }
            let entry = choice.traceEntry
            let created: Implementation
            switch choice {
            case .plain(let tag):
                created = Implementation("\(choice)") { _ in
                    _ = trace.record(entry)
                    return .int(tag)
                }
            case .callingSuper(let tag):
                let compiledClass = classAt(program.compiledClass(ofSuperCalling: tag))
                let compiledIn = RuntimeProgram.isClassMethod(superCalling: tag) ? compiledClass.metaclass : compiledClass
                created = Implementation("\(choice)") { message throws(RuntimeError) in
                    guard trace.record(entry) else { return .int(-1) }
                    return try message.runtime.sendSuper(message, from: compiledIn)
                }
            case .forwarding(let tag):
                let target = program.forwardingTarget(of: tag)
                created = Implementation("\(choice)") { message throws(RuntimeError) in
                    let invocation: Invocation = try message.value(at: 0)
                    guard trace.record(entry) else { throw message.runtime.unrecognized(invocation.selector, by: message.receiver) }
                    try invocation.invoke(target: objects.all.withLock { $0[target] })
                    return .void
                }
            }
            implementations[choice] = created
            entries[ObjectIdentifier(created)] = entry
            return created
        }
        func entry(of implementation: Implementation) -> Int { entries[ObjectIdentifier(implementation)] ?? -1 }
        let signature = Implementation("q@: for every selector") { _ in .value(MethodSignature(typeEncoding: "q@:")) }
        let signatureSelector = Selectors.methodSignature
        func selector(_ index: Int) -> Selector { Selector(RuntimeProgram.selectors[index]) }
        func types(_ choice: RuntimeProgram.Implementation) -> String {
            if case .forwarding = choice { return "v@:@" }
            return "q@:"
        }

        let notifications = Counter()
        var tokens: [Int: ObservationToken] = [:]
        var observations: [Observation] = []
        for operation in program.operations {
            var registersNewClass = false
            if case .registerClass(let index) = operation { registersNewClass = classes[index] == nil }
            // A late class the operation names is made first, as on the real runtime.
            for index in operation.namedClasses { _ = classAt(index) }
            switch operation {
            case .addMethod(let cls, let index, let choice):
                if case .forwarding = choice { runtime.addMethod(to: classAt(cls), signatureSelector, signature, types: "@@::") }
                observations.append(.added(runtime.addMethod(to: classAt(cls), selector(index), implementation(choice), types: types(choice))))
            case .replaceMethod(let cls, let index, let choice):
                if case .forwarding = choice { runtime.replaceMethod(in: classAt(cls), signatureSelector, signature, types: "@@::") }
                let previous = runtime.replaceMethod(in: classAt(cls), selector(index), implementation(choice), types: types(choice))
                observations.append(.replaced(previous.map(entry(of:))))
            case .exchange(let firstClass, let firstSelector, let secondClass, let secondSelector):
                guard let first = runtime.method(selector(firstSelector), in: classAt(firstClass)),
                      let second = runtime.method(selector(secondSelector), in: classAt(secondClass))
                else {
                    observations.append(.exchanged(false))
                    continue
                }
                runtime.exchangeImplementations(first, second)
                observations.append(.exchanged(true))
            case .setImplementation(let cls, let index, let choice):
                guard let method = runtime.method(selector(index), in: classAt(cls)) else {
                    observations.append(.setImplementation(nil))
                    continue
                }
                observations.append(.setImplementation(entry(of: runtime.setImplementation(of: method, to: implementation(choice)))))
            case .setClass(let object, let cls):
                _ = runtime.setClass(of: instances[object], to: classAt(cls))
                observations.append(.setClass)
            case .send(let object, let index):
                trace.reset()
                var raised = false
                do {
                    try runtime.send(instances[object], selector(index))
                } catch {
                    raised = true
                }
                observations.append(.sent(trace: trace.current, raised: raised))
            case .addClassMethod(let cls, let index, let choice):
                observations.append(.added(runtime.addMethod(to: classAt(cls).metaclass, selector(index), implementation(choice), types: types(choice))))
            case .observe(let object):
                let token = try? runtime.addObservation(of: "oracleValue", on: instances[object]) { _, _ in notifications.add() }
                tokens[object] = token
                observations.append(.observation(token != nil))
            case .unobserve(let object):
                guard let token = tokens.removeValue(forKey: object) else {
                    observations.append(.observation(false))
                    continue
                }
                observations.append(.observation((try? runtime.removeObservation(token)) != nil))
            case .setValue(let object):
                trace.reset()
                let before = notifications.value
                _ = try? runtime.send(instances[object], Selector(RuntimeProgram.setter), MessageArguments(.object(nil)))
                observations.append(.set(trace: trace.current, notifications: notifications.value - before))
            case .reportedClass(let object):
                let reported = (try? runtime.send(instances[object], Selectors.class))?.object as? RuntimeClass
                observations.append(.reports(reported.flatMap { reportedClass in classes.firstIndex { $0 === reportedClass } } ?? -1))
            case .overrideRespondsTo(let cls, let answer):
                let override = Implementation("respondsToSelector: \(answer)") { _ in .bool(answer) }
                _ = runtime.replaceMethod(in: classAt(cls), Selectors.respondsToSelector, override, types: "c@::")
                observations.append(.overridden)
            case .sendToClass(let cls, let index):
                trace.reset()
                var raised = false
                do {
                    try runtime.send(classAt(cls), selector(index))
                } catch {
                    raised = true
                }
                observations.append(.sent(trace: trace.current, raised: raised))
            case .registerClass:
                observations.append(.registered(registersNewClass))
            case .overrideClass(let cls, let reports):
                let reported = classAt(reports)
                let override = Implementation("class → C\(reports)") { _ in .object(reported) }
                _ = runtime.replaceMethod(in: classAt(cls), Selectors.class, override, types: "#@:")
                observations.append(.overridden)
            case .respondsTo(let object, let index):
                let answer = try? runtime.send(instances[object], Selectors.respondsToSelector, MessageArguments(.selector(selector(index))))
                observations.append(.responds(answer.map { if case .bool(true) = $0 { true } else { false } } ?? false))
            }
        }
        return observations
    }
}
