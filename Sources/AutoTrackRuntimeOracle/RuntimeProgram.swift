/// AutoTrackEvents: `SplitMix64` appears in this file's public API.
public import AutoTrackEvents

/// A small program of runtime operations — a class hierarchy, a few instances, and
/// method additions, replacements, exchanges, implementation swaps, isa swizzles,
/// sends (with super sends and forwarding) and `respondsToSelector:` checks — that the
/// differential oracle runs on the model and on the real runtime.
///
/// Every operation names classes, objects, selectors and implementations by index, so
/// any subsequence of a program's operations is a valid program: that is what makes a
/// divergence shrinkable.
public struct RuntimeProgram: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The superclass of each class: `nil` for the root class (`NSObject`), else the
    /// index of an earlier class.
    public var superclasses: [Int?]
    /// How many of the last classes are made and registered mid-program — by their
    /// ``Operation/registerClass(cls:)``, or on the first operation that names them if
    /// that comes earlier (so that every subsequence stays a valid program). Objects are
    /// made of the classes before them; super-calling implementations are compiled in
    /// those too.
    public var lateClassCount: Int
    /// The root classes (``superclasses`` `nil`) made under `NSProxy` rather than
    /// `NSObject`.
    public var proxyRoots: Set<Int>
    /// The class each object is made of.
    public var objectClasses: [Int]
    /// The operations, in order.
    public var operations: [Operation]

    /// The selectors of programs: four that are sent, then `forwardInvocation:`, which
    /// forwarding implementations are added under (with a `methodSignatureForSelector:`).
    public static let selectors = ["oracleA", "oracleB", "oracleC", "oracleD", "forwardInvocation:"]
    /// The index of `forwardInvocation:` in ``selectors``.
    public static let forwardingSelector = 4
    /// How many implementations of each kind there are.
    public static let implementationCount = 64

    /// One implementation of a program: its kind and tag.
    public enum Implementation: Hashable, Sendable, Codable, CustomStringConvertible {
        /// Writes its tag.
        case plain(Int)
        /// Writes `100 + tag`, then sends the message to `super` of the class it is
        /// compiled in: early class `tag % earlyClassCount` — its metaclass for tags from 32 on,
        /// which programs use as class methods.
        case callingSuper(Int)
        /// A `forwardInvocation:` (added or replaced together with a
        /// `methodSignatureForSelector:` answering `q@:`): writes `200 + tag`, then
        /// invokes the invocation on object `tag % objectCount`. Forwarding the slow
        /// way, because GNUstep Base on GCC's runtime never asks
        /// `forwardingTargetForSelector:`.
        case forwarding(Int)

        /// The trace entry it writes.
        public var traceEntry: Int {
            switch self {
            case .plain(let tag): tag
            case .callingSuper(let tag): 100 + tag
            case .forwarding(let tag): 200 + tag
            }
        }

        /// `p7`, `s12`, `f3`.
        public var description: String {
            switch self {
            case .plain(let tag): "p\(tag)"
            case .callingSuper(let tag): "s\(tag)"
            case .forwarding(let tag): "f\(tag)"
            }
        }
    }

    /// One operation.
    public enum Operation: Hashable, Sendable, Codable, CustomStringConvertible {
        /// `class_addMethod(class, selector, implementation)`.
        case addMethod(cls: Int, selector: Int, implementation: Implementation)
        /// `class_replaceMethod(class, selector, implementation)`.
        case replaceMethod(cls: Int, selector: Int, implementation: Implementation)
        /// `method_exchangeImplementations` of the methods `class_getInstanceMethod`
        /// finds (skipped when either is missing).
        case exchange(firstClass: Int, firstSelector: Int, secondClass: Int, secondSelector: Int)
        /// `method_setImplementation` on the method `class_getInstanceMethod` finds.
        case setImplementation(cls: Int, selector: Int, implementation: Implementation)
        /// `object_setClass(object, class)`.
        case setClass(object: Int, cls: Int)
        /// `[object selector]`.
        case send(object: Int, selector: Int)
        /// `[object respondsToSelector:selector]`.
        case respondsTo(object: Int, selector: Int)
        /// `class_addMethod(object_getClass(class), selector, implementation)`: a class
        /// method.
        case addClassMethod(cls: Int, selector: Int, implementation: Implementation)
        /// `[class selector]`: a message to the class object.
        case sendToClass(cls: Int, selector: Int)
        /// `class_replaceMethod(class, respondsToSelector:, …)`: an override answering
        /// `answer` for every selector.
        case overrideRespondsTo(cls: Int, answer: Bool)
        /// `[object addObserver:… forKeyPath:@"oracleValue" …]` (key-value observing).
        case observe(object: Int)
        /// `[object removeObserver:… forKeyPath:@"oracleValue"]`.
        case unobserve(object: Int)
        /// `[object setOracleValue:…]`: the setter's trace, and the notifications.
        case setValue(object: Int)
        /// `[object class]`: which class the object reports.
        case reportedClass(object: Int)
        /// `objc_allocateClassPair` + `objc_registerClassPair` of a late class (nothing
        /// when an earlier operation named it and so made it).
        case registerClass(cls: Int)
        /// `class_replaceMethod(class, class, …)`: a `-class` override reporting
        /// `reports` (one of the first eight classes: the bridge binds one IMP per class),
        /// as KVO's classes and dynamic-subclass hooks do.
        case overrideClass(cls: Int, reports: Int)

        /// The classes the operation names.
        public var namedClasses: [Int] {
            switch self {
            case .addMethod(let cls, _, _), .replaceMethod(let cls, _, _), .setImplementation(let cls, _, _), .setClass(_, let cls),
                 .addClassMethod(let cls, _, _), .sendToClass(let cls, _), .overrideRespondsTo(let cls, _), .registerClass(let cls):
                [cls]
            case .overrideClass(let cls, let reports): [cls, reports]
            case .exchange(let firstClass, _, let secondClass, _): [firstClass, secondClass]
            case .send, .respondsTo, .observe, .unobserve, .setValue, .reportedClass: []
            }
        }

        /// The operation in a line, with selectors by name.
        public var description: String {
            func sel(_ index: Int) -> String { RuntimeProgram.selectors[index] }
            switch self {
            case .addMethod(let cls, let selector, let implementation): return "class_addMethod(C\(cls), \(sel(selector)), \(implementation))"
            case .replaceMethod(let cls, let selector, let implementation):
                return "class_replaceMethod(C\(cls), \(sel(selector)), \(implementation))"
            case .exchange(let firstClass, let firstSelector, let secondClass, let secondSelector):
                return "method_exchangeImplementations(C\(firstClass).\(sel(firstSelector)), C\(secondClass).\(sel(secondSelector)))"
            case .setImplementation(let cls, let selector, let implementation):
                return "method_setImplementation(C\(cls).\(sel(selector)), \(implementation))"
            case .setClass(let object, let cls): return "object_setClass(o\(object), C\(cls))"
            case .send(let object, let selector): return "[o\(object) \(sel(selector))]"
            case .respondsTo(let object, let selector): return "[o\(object) respondsToSelector:@selector(\(sel(selector)))]"
            case .addClassMethod(let cls, let selector, let implementation):
                return "class_addMethod(object_getClass(C\(cls)), \(sel(selector)), \(implementation))"
            case .sendToClass(let cls, let selector): return "[C\(cls) \(sel(selector))]"
            case .overrideRespondsTo(let cls, let answer): return "class_replaceMethod(C\(cls), respondsToSelector:, return \(answer ? "YES" : "NO"))"
            case .observe(let object): return "[o\(object) addObserver:observer forKeyPath:@\"oracleValue\" …]"
            case .unobserve(let object): return "[o\(object) removeObserver:observer forKeyPath:@\"oracleValue\"]"
            case .setValue(let object): return "[o\(object) setOracleValue:…]"
            case .reportedClass(let object): return "[o\(object) class]"
            case .registerClass(let cls): return "objc_registerClassPair(C\(cls))"
            case .overrideClass(let cls, let reports): return "class_replaceMethod(C\(cls), class, return C\(reports))"
            }
        }
    }

    /// Creates a program.
    public init(superclasses: [Int?], lateClassCount: Int = 0, proxyRoots: Set<Int> = [], objectClasses: [Int], operations: [Operation]) {
        self.superclasses = superclasses
        self.lateClassCount = min(max(0, lateClassCount), max(0, superclasses.count - 1))
        self.proxyRoots = proxyRoots.filter { superclasses.indices.contains($0) && superclasses[$0] == nil }
        self.objectClasses = objectClasses
        self.operations = operations
    }

    /// The classes made before the operations run: the first ones, all but the late.
    public var earlyClassCount: Int { superclasses.count - lateClassCount }

    /// Whether class `index` is made mid-program.
    public func isLate(_ index: Int) -> Bool { index >= earlyClassCount }

    /// Whether class `index` descends from `NSProxy` (else from `NSObject`).
    public func isProxyRooted(_ index: Int) -> Bool {
        var current = index
        while let superclass = superclasses[current] { current = superclass }
        return proxyRoots.contains(current)
    }

    /// The class a super-calling implementation is compiled in (an early one).
    public func compiledClass(ofSuperCalling tag: Int) -> Int { tag % earlyClassCount }

    /// Whether a super-calling implementation is a class method (compiled in the
    /// metaclass): tags from 32 on.
    public static func isClassMethod(superCalling tag: Int) -> Bool { tag >= implementationCount / 2 }

    /// The object a forwarding implementation returns.
    public func forwardingTarget(of tag: Int) -> Int { tag % objectClasses.count }

    /// Every class has `setOracleValue:` (writing 400), the key-value observed property.
    public static let setter = "setOracleValue:"

    /// The program as a person reads it: classes, objects, then one operation a line.
    public var description: String {
        var lines = superclasses.enumerated().map { index, superclass in
            "C\(index) : \(superclass.map { "C\($0)" } ?? (proxyRoots.contains(index) ? "NSProxy" : "NSObject"))\(isLate(index) ? " (made mid-program)" : "")"
        }
        lines += objectClasses.enumerated().map { index, cls in "o\(index) = [C\(cls) \(isProxyRooted(cls) ? "alloc" : "new")]" }
        lines += operations.map(\.description)
        return lines.joined(separator: "\n")
    }

    // MARK: Generation

    /// A random program from `generator`: 1–4 classes made first and, in a third of
    /// programs, 1–2 more made mid-program; 1–3 objects; 4–24 operations, weighted
    /// towards sends so every change is observed.
    public static func random(using generator: inout SplitMix64) -> RuntimeProgram {
        func pick(_ range: Range<Int>) -> Int { Int.random(in: range, using: &generator) }
        let earlyCount = pick(1..<5)
        let lateCount = pick(0..<3) == 0 ? pick(1..<3) : 0
        let classCount = earlyCount + lateCount
        let superclasses: [Int?] = (0..<classCount).map { index in
            index == 0 || pick(0..<3) == 0 ? nil : pick(0..<index)
        }
        // A quarter of the root classes descend from NSProxy.
        let proxyRoots = Set(superclasses.indices.filter { superclasses[$0] == nil && pick(0..<4) == 0 })
        func proxyRooted(_ index: Int) -> Bool {
            var current = index
            while let superclass = superclasses[current] { current = superclass }
            return proxyRoots.contains(current)
        }
        let objectClasses = (0..<pick(1..<4)).map { _ in pick(0..<earlyCount) }
        // Where each late class is registered: after a random number of operations.
        var registrations = (earlyCount..<classCount).map { (cls: $0, after: pick(0..<12)) }.sorted { $0.after < $1.after }
        func implementation() -> Implementation {
            pick(0..<3) == 0 ? .callingSuper(pick(0..<implementationCount / 2)) : .plain(pick(0..<implementationCount))
        }
        func classImplementation() -> Implementation {
            pick(0..<3) == 0 ? .callingSuper(pick(implementationCount / 2..<implementationCount)) : .plain(pick(0..<implementationCount))
        }
        func plainSelector() -> Int { pick(0..<forwardingSelector) }
        var operations: [Operation] = []
        // GNUstep's KVO builds on the reported class, objc4's on the real one (a known,
        // pinned difference): observed objects are never isa-swizzled, and observations
        // are single.
        var observed = Set<Int>()
        // GNUstep's key-value coding asks the object's respondsToSelector: for the
        // accessors (objc4's looks at the class): another pinned difference, so a program
        // overrides respondsToSelector: or observes, not both.
        // GNUstep's KVO subclasses the class `-class` reports (objc4's and the model's the
        // real one): a third pinned difference, so a program overrides `-class` or
        // observes, not both.
        var observes = false, overridesResponds = false, overridesClass = false
        for step in 0..<pick(4..<25) {
            while let next = registrations.first, next.after <= step {
                operations.append(.registerClass(cls: next.cls))
                registrations.removeFirst()
            }
            let cls = pick(0..<classCount), object = pick(0..<objectClasses.count)
            if pick(0..<100) < 12 {
                switch pick(0..<4) {
                case 0 where !observed.contains(object) && !overridesResponds && !overridesClass && !proxyRooted(objectClasses[object]):
                    observed.insert(object)
                    observes = true
                    operations.append(.observe(object: object))
                case 1 where observed.contains(object):
                    observed.remove(object)
                    operations.append(.unobserve(object: object))
                case 2: operations.append(.setValue(object: object))
                default: operations.append(.reportedClass(object: object))
                }
                continue
            }
            switch pick(0..<100) {
            case 0..<30: operations.append(.send(object: object, selector: plainSelector()))
            case 30..<50: operations.append(.addMethod(cls: cls, selector: plainSelector(), implementation: implementation()))
            case 50..<60: operations.append(.replaceMethod(cls: cls, selector: plainSelector(), implementation: implementation()))
            case 60..<70:
                operations.append(.exchange(
                    firstClass: cls, firstSelector: plainSelector(), secondClass: pick(0..<classCount), secondSelector: plainSelector()))
            case 70..<80: operations.append(.setImplementation(cls: cls, selector: plainSelector(), implementation: implementation()))
            // An object keeps its root: NSProxy's and NSObject's instances are laid out
            // differently by GNUstep.
            case 80..<88 where !observed.contains(object) && proxyRooted(cls) == proxyRooted(objectClasses[object]):
                operations.append(.setClass(object: object, cls: cls))
            case 80..<88: operations.append(.reportedClass(object: object))
            // NSProxy's respondsToSelector: answers YES itself on GNUstep for what the
            // proxy's class implements, and is always forwarded in Foundation and the
            // model: a pinned difference, so proxies are not asked.
            case 88..<91 where !proxyRooted(objectClasses[object]):
                operations.append(.respondsTo(object: object, selector: pick(0..<selectors.count)))
            case 88..<91: operations.append(.reportedClass(object: object))
            case 91..<92 where !observes:
                overridesResponds = true
                operations.append(.overrideRespondsTo(cls: cls, answer: pick(0..<2) == 0))
            case 91..<92 where !proxyRooted(objectClasses[object]): operations.append(.respondsTo(object: object, selector: pick(0..<selectors.count)))
            case 91..<92: operations.append(.reportedClass(object: object))
            case 92..<93 where !observes:
                overridesClass = true
                operations.append(.overrideClass(cls: cls, reports: pick(0..<classCount)))
            case 92..<93: operations.append(.reportedClass(object: object))
            case 93..<94: operations.append(.addClassMethod(cls: cls, selector: plainSelector(), implementation: classImplementation()))
            case 94..<96: operations.append(.sendToClass(cls: cls, selector: plainSelector()))
            default:
                let forwarding = Implementation.forwarding(pick(0..<implementationCount))
                operations.append(pick(0..<2) == 0
                    ? .addMethod(cls: cls, selector: forwardingSelector, implementation: forwarding)
                    : .replaceMethod(cls: cls, selector: forwardingSelector, implementation: forwarding))
            }
        }
        operations += registrations.map { .registerClass(cls: $0.cls) }
        return RuntimeProgram(
            superclasses: superclasses, lateClassCount: lateCount, proxyRoots: proxyRoots, objectClasses: objectClasses, operations: operations)
    }
}

/// What one operation showed: the same on both runtimes, or the programs diverge.
public enum Observation: Hashable, Sendable, Codable, CustomStringConvertible {
    /// `class_addMethod`'s answer.
    case added(Bool)
    /// The trace entry of the implementation `class_replaceMethod` replaced, `nil`
    /// when it added one.
    case replaced(Int?)
    /// Whether both methods of an exchange were found (and exchanged).
    case exchanged(Bool)
    /// The trace entry of the implementation `method_setImplementation` replaced,
    /// `nil` when there was no method.
    case setImplementation(Int?)
    /// An isa swizzle (nothing to compare).
    case setClass
    /// A class made mid-program: `true` when this operation made it, `false` when an
    /// earlier one that named it had.
    case registered(Bool)
    /// A `respondsToSelector:` override installed (nothing to compare; later answers are).
    case overridden
    /// An observation added or removed (`false`: there was none to remove).
    case observation(Bool)
    /// A setter's trace, and how many notifications the observers got.
    case set(trace: [Int], notifications: Int)
    /// The program class an object reports from `-class` (-1 for any other).
    case reports(Int)
    /// The implementations a send ran, in order, and whether it raised (an
    /// unrecognised selector).
    case sent(trace: [Int], raised: Bool)
    /// `respondsToSelector:`'s answer.
    case responds(Bool)
    /// Nothing: this runtime's run ended before the operation the other one observed.
    case missing

    /// The observation in a few words.
    public var description: String {
        switch self {
        case .added(let added): "added \(added)"
        case .replaced(let previous): "replaced \(previous.map(String.init) ?? "nothing")"
        case .exchanged(let exchanged): exchanged ? "exchanged" : "not exchanged (a method is missing)"
        case .setImplementation(let previous): "set, previous \(previous.map(String.init) ?? "no method")"
        case .setClass: "isa set"
        case .registered(let made): made ? "class registered" : "class registered already"
        case .overridden: "overridden"
        case .observation(let done): done ? "observation changed" : "no observation to remove"
        case .set(let trace, let notifications): "set ran [\(trace.map(String.init).joined(separator: " "))], \(notifications) notifications"
        case .reports(let cls): cls < 0 ? "reports another class" : "reports C\(cls)"
        case .sent(let trace, let raised): "ran [\(trace.map(String.init).joined(separator: " "))]\(raised ? ", raised" : "")"
        case .responds(let answer): "responds \(answer)"
        case .missing: "nothing (the run ended before)"
        }
    }
}
