import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A listening TCP socket on 127.0.0.1: the local collector's, and the inspect
/// server's.
package enum LoopbackListener {
    /// Why no socket listens.
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    /// Listens on 127.0.0.1 at `port` (0: a free one); the descriptor and the port.
    package static func open(port requested: UInt16, backlog: Int32) throws(Failure) -> (descriptor: Int32, port: Int) {
        let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socketFD >= 0 else { throw Failure(description: "socket: errno \(errno)") }
        var reuse: Int32 = 1
        setsockopt(socketFD, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = requested.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socketFD, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(socketFD, backlog) == 0 else {
            let code = errno
            close(socketFD)
            throw Failure(description: "cannot listen on 127.0.0.1:\(requested): errno \(code)")
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socketFD, $0, &length) }
        }
        return (socketFD, Int(UInt16(bigEndian: actual.sin_port)))
    }
}
