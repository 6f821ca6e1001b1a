#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The write-side file calls of a durable queue, behind an interface so tests can make
/// them fail on demand (a full disk, an I/O error, a short write). Each returns what
/// its POSIX call returns, with the error as a positive `errno`.
package protocol QueueWriteLayer: Sendable {
    /// `pwrite(2)` at `offset`: the bytes written, or `-errno`.
    func write(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int) -> Int
    /// Makes the file's data durable — `fdatasync(2)` where the system has it (the
    /// data, and the size when it changed; not the timestamps), else `fsync(2)`: 0, or
    /// `errno`.
    func synchronize(_ descriptor: Int32) -> Int32
    /// `ftruncate(2)`: 0, or `errno`.
    func truncate(_ descriptor: Int32, to length: Int) -> Int32
}

/// The system's calls.
package struct SystemQueueWriteLayer: QueueWriteLayer {
    package init() {}

    package func write(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int) -> Int {
        let written = pwrite(descriptor, bytes.baseAddress, bytes.count, off_t(offset))
        return written < 0 ? -Int(errno) : written
    }

    package func synchronize(_ descriptor: Int32) -> Int32 {
        #if canImport(Glibc)
        Glibc.fdatasync(descriptor) == 0 ? 0 : errno
        #else
        Darwin.fsync(descriptor) == 0 ? 0 : errno
        #endif
    }

    package func truncate(_ descriptor: Int32, to length: Int) -> Int32 {
        ftruncate(descriptor, off_t(length)) == 0 ? 0 : errno
    }
}

/// Private-by-default files: directories 0700 and files 0600, whatever the umask.
package enum PrivateFiles {
    /// `mkdir -p`; directories it creates are 0700. A failure carries its `errno`.
    package static func createDirectory(_ path: String) -> Int32? {
        var prefix = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            prefix += "/" + component
            if mkdir(prefix, 0o700) == 0 {
                chmod(prefix, 0o700)
                continue
            }
            let code = errno
            var status = stat()
            guard code == EEXIST, stat(prefix, &status) == 0 else { return code }
            guard status.st_mode & S_IFMT == S_IFDIR else { return ENOTDIR }
        }
        return nil
    }

    /// Opens (creating 0600) `path` with `flags`; -1 and `errno` on failure.
    package static func open(_ path: String, _ flags: Int32) -> Int32 {
        #if canImport(Glibc)
        let descriptor = Glibc.open(path, flags | O_CREAT | O_CLOEXEC, 0o600)
        #else
        let descriptor = Darwin.open(path, flags | O_CREAT | O_CLOEXEC, 0o600)
        #endif
        if descriptor >= 0 { fchmod(descriptor, 0o600) }
        return descriptor
    }

    /// Writes `bytes` to a new or replaced private file; `errno` on failure.
    package static func write(_ bytes: [UInt8], to path: String) -> Int32? {
        let descriptor = open(path, O_WRONLY | O_TRUNC)
        guard descriptor >= 0 else { return errno }
        defer { closeDescriptor(descriptor) }
        let written = bytes.withUnsafeBytes { SystemQueueWriteLayer().write(descriptor, $0, at: 0) }
        return written == bytes.count ? nil : (written < 0 ? Int32(-written) : EIO)
    }

    /// The whole file, or `nil` when it cannot be read.
    package static func read(_ path: String) -> [UInt8]? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        // Read past the size seen, in case the file grew: stop at the end.
        return read(path, offset: 0, count: Int(status.st_size) + 4096)
    }

    /// `count` bytes at `offset`, or fewer when the file is shorter; `nil` when it
    /// cannot be opened or read.
    package static func read(_ path: String, offset: Int, count: Int) -> [UInt8]? {
        #if canImport(Glibc)
        let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        #else
        let descriptor = Darwin.open(path, O_RDONLY | O_CLOEXEC)
        #endif
        guard descriptor >= 0 else { return nil }
        defer { closeDescriptor(descriptor) }
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let read = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + filled, count - filled, off_t(offset + filled)) }
            if read < 0 { return nil }
            if read == 0 { break }
            filled += read
        }
        return Array(bytes[0..<filled])
    }

    /// `close(2)`.
    package static func closeDescriptor(_ descriptor: Int32) {
        #if canImport(Glibc)
        _ = Glibc.close(descriptor)
        #else
        _ = Darwin.close(descriptor)
        #endif
    }

    /// Takes an exclusive lock on `path` (created 0600): the descriptor holding it, or
    /// `nil` when another open file — in this process or another — holds it.
    package static func lock(_ path: String) -> Result<Int32, LockFailure> {
        let descriptor = open(path, O_RDWR)
        guard descriptor >= 0 else { return .failure(.error(errno)) }
        if flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            closeDescriptor(descriptor)
            return .failure(code == EWOULDBLOCK ? .held : .error(code))
        }
        return .success(descriptor)
    }

    /// Why a lock was not taken.
    package enum LockFailure: Error {
        /// Another holder has it.
        case held
        /// The lock file could not be opened or locked.
        case error(Int32)
    }
}
