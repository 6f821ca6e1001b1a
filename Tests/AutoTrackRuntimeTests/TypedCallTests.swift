import AutoTrackRuntime
import Testing

@Suite("Typed calls and implementations check shapes with typed errors")
struct TypedCallTests {
    let runtime = Runtime()

    struct IndexPath: RuntimeStructValue, Equatable {
        var section: Int
        var row: Int
    }

    @Test("the hook shapes round-trip typed values: no args, one bool, two objects, selector + two objects")
    func shapes() throws {
        let log = CallLog()
        let cls = try runtime.defineClass("Shapes", methods: [
            ("count", "q@:", .returning("count") { (_: Message) in 7 }),
            ("viewDidAppear:", "v@:c", .procedure("appear") { (_: Message, animated: Bool) in log.record("animated \(animated)") }),
            ("tableView:didSelectRowAtIndexPath:", "v@:@@", .procedure("select") { (_: Message, table: RuntimeObject?, path: IndexPath) in
                log.record("select \(table == nil) \(path.section):\(path.row)")
            }),
            ("sendAction:to:forEvent:", "c@::@@", .returning("send") { (_: Message, action: Selector, target: RuntimeObject?, event: RuntimeObject?) in
                log.record("send \(action) \(target == nil) \(event == nil)")
                return true
            }),
        ])
        let object = try runtime.allocate(cls)
        #expect(try runtime.call(object, "count", returning: Int.self) == 7)
        try runtime.call(object, "viewDidAppear:", true)
        try runtime.call(object, "tableView:didSelectRowAtIndexPath:", object, IndexPath(section: 0, row: 5))
        #expect(try runtime.call(object, "sendAction:to:forEvent:", Selector("tap:"), object, RuntimeObject?.none, returning: Bool.self))
        #expect(log.sequence == ["animated true", "select false 0:5", "send tap: false true"])
    }

    @Test("wrong argument kinds and counts are typed errors, not traps")
    func mismatches() throws {
        let cls = try runtime.defineClass("Strict", methods: [
            ("viewDidAppear:", "v@:c", .procedure("appear") { (_: Message, _: Bool) in }),
            ("count", "q@:", .returning("count") { (_: Message) in 1 }),
        ])
        let object = try runtime.allocate(cls)
        #expect(throws: RuntimeError.typeMismatch(selector: "viewDidAppear:", expected: "bool", found: "int")) {
            try runtime.call(object, "viewDidAppear:", 3)
        }
        #expect(throws: RuntimeError.argumentCountMismatch(selector: "viewDidAppear:", expected: 1, found: 0)) {
            try runtime.call(object, "viewDidAppear:")
        }
        #expect(throws: RuntimeError.typeMismatch(selector: "count", expected: "bool", found: "int")) {
            try runtime.call(object, "count", returning: Bool.self)
        }
        #expect(throws: RuntimeError.typeMismatch(selector: "count", expected: "RuntimeObject", found: "int")) {
            try runtime.call(object, "count", returning: RuntimeObject.self)
        }
    }

    @Test("message arguments hold four inline and spill the rest")
    func arguments() {
        var arguments = MessageArguments()
        for index in 0..<7 { arguments.append(.int(index)) }
        #expect(arguments.count == 7)
        #expect(arguments.map { if case .int(let value) = $0 { value } else { -1 } } == Array(0..<7))
        arguments[5] = .bool(true)
        if case .bool(true) = arguments[5] {} else { Issue.record("overflow slot not written") }
    }

    @Test("blocks are invoked with their arguments")
    func blocks() throws {
        let block = RuntimeBlock { arguments in .int(arguments.count) }
        guard case .int(2) = try block.invoke([.void, .void]) else {
            Issue.record("wrong result")
            return
        }
    }
}
