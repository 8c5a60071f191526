#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Foundation

/// A lock and condition whose timed waits follow the monotonic clock, so a deadline does not
/// move when someone sets the system time (`NSCondition` waits on the wall clock).
final class MonotonicCondition: @unchecked Sendable {
    #if os(Linux)
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init() {
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    func lock() { pthread_mutex_lock(mutex) }
    func unlock() { pthread_mutex_unlock(mutex) }
    func signal() { pthread_cond_signal(condition) }
    func wait() { pthread_cond_wait(condition, mutex) }

    /// Waits until signalled or until `timeout` has passed on the monotonic clock.
    func wait(for timeout: Duration) {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let (seconds, attoseconds) = max(timeout, .zero).components
        var nanoseconds = Int(now.tv_nsec) + Int(attoseconds / 1_000_000_000)
        var wholeSeconds = Int(now.tv_sec) + Int(clamping: min(seconds, Int64(Int32.max)))
        if nanoseconds >= 1_000_000_000 {
            wholeSeconds += 1
            nanoseconds -= 1_000_000_000
        }
        var until = timespec(tv_sec: wholeSeconds, tv_nsec: nanoseconds)
        _ = pthread_cond_timedwait(condition, mutex, &until)
    }
    #else
    private let condition = NSCondition()
    func lock() { condition.lock() }
    func unlock() { condition.unlock() }
    func signal() { condition.signal() }
    func wait() { condition.wait() }
    func wait(for timeout: Duration) {
        let (seconds, attoseconds) = max(timeout, .zero).components
        _ = condition.wait(until: Date(timeIntervalSinceNow: Double(seconds) + Double(attoseconds) / 1e18))
    }
    #endif
}
