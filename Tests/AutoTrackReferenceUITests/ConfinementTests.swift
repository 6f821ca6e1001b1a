import AutoTrackReferenceUI
import Dispatch
import Testing

@Suite("The host is confined to one UI thread at a time")
struct ConfinementTests {
    @Test("a user action marks its thread for its duration, nested actions included, and releases it after")
    func marksTheActingThread() throws {
        let host = try ReferenceHost()
        #expect(host.threadInsideAction == 0)
        let outer = host.enterUIThread("outer")
        let inner = host.enterUIThread("inner")
        #expect(outer.isConfined && inner.isConfined)
        #expect(host.threadInsideAction == ReferenceHost.callingThread)
        host.leaveUIThread(inner)
        #expect(host.threadInsideAction == ReferenceHost.callingThread, "still inside the outer action")
        host.leaveUIThread(outer)
        #expect(host.threadInsideAction == 0)
    }

    @Test("another thread sees the acting thread, and may drive the host once it has left")
    func anotherThread() throws {
        let host = try ReferenceHost()
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            let confinement = host.enterUIThread("background action")
            entered.signal()
            release.wait()
            host.leaveUIThread(confinement)
            finished.signal()
        }
        entered.wait()
        let holder = host.threadInsideAction
        #expect(holder != 0 && holder != ReferenceHost.callingThread, "a driver call now would trap in a debug build")
        release.signal()
        finished.wait()
        host.driver.background()
        #expect(host.threadInsideAction == 0)
    }
}
