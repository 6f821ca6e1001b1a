import AutoTrackSerialization
import Foundation
import Testing
import AutoTrackLocking

@Suite("The JSON parser on a small thread stack")
struct ParserStackTests {
    /// Parses arrays nested `depth` deep on a thread with a 512 KiB stack (Apple's
    /// default for secondary threads), and reports whether it finished.
    static func parseOnSmallStack(depth: Int, maximumDepth: Int) -> Bool {
        let text = Array((String(repeating: "[", count: depth) + String(repeating: "]", count: depth)).utf8)
        let finished = Locked(false)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            _ = try? JSONParser(maximumDepth: maximumDepth).parse(text)
            finished.withLock { $0 = true }
            done.signal()
        }
        thread.stackSize = 512 << 10
        thread.start()
        done.wait()
        return finished.withLock { $0 }
    }

    @Test("the deepest document the parser allows parses on a 512 KiB stack")
    func deepestAllowed() {
        let allowed = JSONParser(maximumDepth: .max).maximumDepth
        #expect(Self.parseOnSmallStack(depth: allowed, maximumDepth: allowed))
        #expect(Self.parseOnSmallStack(depth: allowed + 50, maximumDepth: allowed), "deeper is refused, not a crash")
    }
}
