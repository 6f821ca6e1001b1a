// Public imports: the inlinable lock's storage is made of their types.
#if AUTOTRACK_TSAN
#if canImport(Glibc)
public import Glibc
#elseif canImport(Darwin)
public import Darwin
#endif
#else
public import Synchronization
#endif

/// A value guarded by a lock: what every module of the package uses where it needs
/// mutual exclusion.
///
/// Normally it is `Synchronization.Mutex`, inlined away (always: a call to the generic
/// `withLock` would pass type metadata on every guarded access). Built for ThreadSanitizer
/// (`-Xswiftc -DAUTOTRACK_TSAN` with `--sanitize=thread`) it is a `pthread_mutex_t`
/// instead: `Mutex` waits on futexes directly, which ThreadSanitizer does not model on
/// Linux, so every access it guards would be reported as a race; a pthread mutex is
/// modelled, so the sanitizer sees the package's real synchronisation and reports only
/// real races.
///
/// Public, though only this package's modules use it and no product contains it: a
/// `package` function's body is not inlined into other modules (measured: every
/// guarded access became a call to the generic `withLock`, passing type metadata),
/// and a public `@inlinable` one is.
public struct Locked<Value: ~Copyable>: ~Copyable {
    #if AUTOTRACK_TSAN
    @usableFromInline let storage: Storage

    /// The value and a pthread mutex, at a stable address.
    @usableFromInline
    final class Storage {
        @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
        @usableFromInline var value: Value

        @usableFromInline
        init(_ value: consuming Value) {
            self.value = value
            mutex = .allocate(capacity: 1)
            mutex.initialize(to: pthread_mutex_t())
            pthread_mutex_init(mutex, nil)
        }

        deinit {
            pthread_mutex_destroy(mutex)
            mutex.deallocate()
        }
    }

    /// A lock guarding `initialValue`.
    @inlinable @inline(__always)
    public init(_ initialValue: consuming sending Value) { storage = Storage(initialValue) }

    /// Runs `body` with the value, the lock held.
    @inlinable @inline(__always)
    public borrowing func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        pthread_mutex_lock(storage.mutex)
        defer { pthread_mutex_unlock(storage.mutex) }
        return try body(&storage.value)
    }
    #else
    @usableFromInline let mutex: Mutex<Value>

    /// A lock guarding `initialValue`.
    @inlinable @inline(__always)
    public init(_ initialValue: consuming sending Value) { mutex = Mutex(initialValue) }

    /// Runs `body` with the value, the lock held.
    @inlinable @inline(__always)
    public borrowing func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        try mutex.withLock(body)
    }
    #endif
}

// Safe: the value is reached only through `withLock`, with the lock held, and handed
// in and out as `sending` — as `Synchronization.Mutex`, which is Sendable the same way.
extension Locked: @unchecked Sendable where Value: ~Copyable {}
