import CObjCRuntimeBridge
import AutoTrackLocking

/// Runs a ``RuntimeProgram`` on the real runtime (GCC's libobjc with GNUstep Base):
/// real classes made with `objc_allocateClassPair`, the bridge's pool of tagged IMPs,
/// real method caches, `objc_msg_lookup_super` and GNUstep's forwarding.
enum ObjCExecution {
    /// The pool's bindings (which class a super-calling IMP is compiled in, which object
    /// a forwarding IMP returns) are process-wide: one program at a time.
    private static let exclusive = Locked<Int>(0)

    static func run(_ program: RuntimeProgram) -> [Observation] {
        exclusive.withLock { programNumber in
            programNumber += 1
            return run(program, number: programNumber)
        }
    }

    private static func run(_ program: RuntimeProgram, number: Int) -> [Observation] {
        guard let root = atr_lookUpClass("NSObject"), let proxyRoot = atr_lookUpClass("NSProxy") else { return [] }
        var classes: [ATClassRef?] = Array(repeating: nil, count: program.superclasses.count)
        /// Class `index`, made (with its superclasses) when first named; `nil` when the
        /// runtime refused to make it.
        func classAt(_ index: Int) -> ATClassRef? {
            if let existing = classes[index] { return existing }
            let superclass = program.superclasses[index]
            // Registered classes cannot be disposed of: each program's names are new.
            guard let parent = superclass.map({ classAt($0) }) ?? (program.proxyRoots.contains(index) ? proxyRoot : root),
                  let created = atr_allocateClassPair(parent, "AutoTrackOracle\(number)_C\(index)") else { return nil }
            if superclass == nil {
                _ = atr_addMethod(created, atr_selector(RuntimeProgram.setter), atr_oracleSetterImplementation(), "v@:@")
                _ = atr_addMethod(created, atr_selector("oracleValue"), atr_oracleGetterImplementation(), "@@:")
            }
            atr_registerClassPair(created)
            atr_oracleBindReportedClass(Int32(index), created)
            classes[index] = created
            return created
        }
        for index in 0..<program.earlyClassCount where classAt(index) == nil { return [] }
        // NSProxy has no +new: its instances are allocated only, as proxies are.
        let objects = program.objectClasses.map { program.isProxyRooted($0) ? atr_alloc(classes[$0]!)! : atr_new(classes[$0]!)! }
        defer { for object in objects { atr_release(object) } }
        for tag in 0..<RuntimeProgram.implementationCount {
            let compiledClass = classes[program.compiledClass(ofSuperCalling: tag)]!
            atr_oracleBindSuper(Int32(tag), RuntimeProgram.isClassMethod(superCalling: tag) ? atr_metaclass(compiledClass) : compiledClass)
            atr_oracleBindForwardingTarget(Int32(tag), objects[program.forwardingTarget(of: tag)])
        }
        defer {
            for slot in 0..<Int(ATR_ORACLE_CLASS_SLOTS) { atr_oracleBindReportedClass(Int32(slot), nil) }
            for tag in 0..<RuntimeProgram.implementationCount {
                atr_oracleBindSuper(Int32(tag), nil)
                atr_oracleBindForwardingTarget(Int32(tag), nil)
            }
        }

        func implementation(_ choice: RuntimeProgram.Implementation) -> ATImplementation {
            switch choice {
            case .plain(let tag): atr_oracleImplementation(Int32(tag))
            case .callingSuper(let tag): atr_oracleSuperImplementation(Int32(tag))
            case .forwarding(let tag): atr_oracleForwardingImplementation(Int32(tag))
            }
        }
        func types(_ choice: RuntimeProgram.Implementation) -> String {
            if case .forwarding = choice { return "v@:@" }
            return "q@:"
        }
        let signatureSelector = atr_selector("methodSignatureForSelector:")
        let signature = atr_oracleForwardingSignatureImplementation()
        func entry(_ imp: ATImplementation) -> Int { Int(atr_oracleTag(imp)) }
        let selectors = RuntimeProgram.selectors.map { atr_selector($0) }

        let observer = atr_appNewObserver()
        defer { atr_release(observer) }
        var observedObjects = Set<Int>()
        defer {
            // Observations are removed before the objects go (KVO requires it).
            for object in observedObjects { _ = atr_removeObserver(objects[object], observer, "oracleValue") }
        }
        let setter = atr_selector(RuntimeProgram.setter)
        var observations: [Observation] = []
        for operation in program.operations {
            var registersNewClass = false
            if case .registerClass(let index) = operation { registersNewClass = classes[index] == nil }
            // A late class the operation names is made first; a run that cannot make one
            // ends here (the oracle reports what is missing).
            for index in operation.namedClasses where classAt(index) == nil { return observations }
            switch operation {
            case .addMethod(let cls, let index, let choice):
                if case .forwarding = choice { _ = atr_addMethod(classes[cls]!, signatureSelector, signature, "@@::") }
                observations.append(.added(atr_addMethod(classes[cls]!, selectors[index], implementation(choice), types(choice))))
            case .replaceMethod(let cls, let index, let choice):
                if case .forwarding = choice { _ = atr_replaceMethod(classes[cls]!, signatureSelector, signature, "@@::") }
                let previous = atr_replaceMethod(classes[cls]!, selectors[index], implementation(choice), types(choice))
                observations.append(.replaced(previous.map(entry)))
            case .exchange(let firstClass, let firstSelector, let secondClass, let secondSelector):
                guard let first = atr_instanceMethod(classes[firstClass]!, selectors[firstSelector]),
                      let second = atr_instanceMethod(classes[secondClass]!, selectors[secondSelector])
                else {
                    observations.append(.exchanged(false))
                    continue
                }
                atr_exchangeImplementations(
                    atr_methodOwner(classes[firstClass]!, first)!, first, atr_methodOwner(classes[secondClass]!, second)!, second)
                observations.append(.exchanged(true))
            case .setImplementation(let cls, let index, let choice):
                guard let method = atr_instanceMethod(classes[cls]!, selectors[index]) else {
                    observations.append(.setImplementation(nil))
                    continue
                }
                let owner = atr_methodOwner(classes[cls]!, method)!
                observations.append(.setImplementation(entry(atr_setImplementation(owner, method, implementation(choice)))))
            case .setClass(let object, let cls):
                _ = atr_setClass(objects[object], classes[cls]!)
                observations.append(.setClass)
            case .send(let object, let index):
                atr_oracleResetTrace()
                let result = atr_send0(objects[object], selectors[index])
                let trace = (0..<atr_oracleTraceCount()).map { Int(atr_oracleTraceEntry($0)) }
                observations.append(.sent(trace: trace, raised: result.raised))
            case .addClassMethod(let cls, let index, let choice):
                observations.append(.added(atr_addMethod(atr_metaclass(classes[cls]!), selectors[index], implementation(choice), types(choice))))
            case .observe(let object):
                let added = !atr_addObserver(objects[object], observer, "oracleValue").raised
                if added { observedObjects.insert(object) }
                observations.append(.observation(added))
            case .unobserve(let object):
                guard observedObjects.remove(object) != nil else {
                    observations.append(.observation(false))
                    continue
                }
                observations.append(.observation(!atr_removeObserver(objects[object], observer, "oracleValue").raised))
            case .setValue(let object):
                atr_oracleResetTrace()
                let before = atr_appObservedChanges()
                _ = atr_send1(objects[object], setter, nil)
                let trace = (0..<atr_oracleTraceCount()).map { Int(atr_oracleTraceEntry($0)) }
                observations.append(.set(trace: trace, notifications: Int(atr_appObservedChanges() - before)))
            case .reportedClass(let object):
                let reported = atr_reportedClass(objects[object])
                observations.append(.reports(reported.flatMap { reportedClass in classes.firstIndex { $0 == reportedClass } } ?? -1))
            case .overrideRespondsTo(let cls, let answer):
                _ = atr_replaceMethod(classes[cls]!, atr_selector("respondsToSelector:"), atr_oracleRespondsImplementation(answer), "c@::")
                observations.append(.overridden)
            case .sendToClass(let cls, let index):
                atr_oracleResetTrace()
                let result = atr_send0(classes[cls]!, selectors[index])
                let trace = (0..<atr_oracleTraceCount()).map { Int(atr_oracleTraceEntry($0)) }
                observations.append(.sent(trace: trace, raised: result.raised))
            case .registerClass:
                // Made above, unless an earlier operation named it and so made it.
                observations.append(.registered(registersNewClass))
            case .overrideClass(let cls, let reports):
                _ = atr_replaceMethod(classes[cls]!, atr_selector("class"), atr_oracleClassImplementation(Int32(reports)), "#@:")
                observations.append(.overridden)
            case .respondsTo(let object, let index):
                observations.append(.responds(atr_respondsToSelector(objects[object], selectors[index]).value != 0))
            }
        }
        return observations
    }
}
