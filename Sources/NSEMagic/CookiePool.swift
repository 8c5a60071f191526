import Foundation

/// A bounded free list of libmagic cookies, so concurrent callers never share one.
///
/// Cookies are made lazily (loading the database costs far more than a classification) up to
/// `capacity`; when all are busy a caller waits for one to come back. Waiting blocks the
/// thread, which is acceptable because a classification takes microseconds; with `capacity`
/// at least the number of cores, async callers on the cooperative pool cannot starve it.
final class CookiePool: Sendable {
    let capacity: Int
    private let databasePath: String?
    // NSCondition guards `state`; nothing touches it without holding the lock.
    private let condition = NSCondition()
    private nonisolated(unsafe) var state = State()

    private struct State {
        var free: [MagicCookie] = []
        var created = 0
    }

    /// Makes a pool, loading one cookie at once so that a missing database fails here, early.
    init(capacity: Int, databasePath: String?) throws {
        precondition(capacity > 0, "a cookie pool needs room for at least one cookie")
        self.capacity = capacity
        self.databasePath = databasePath
        state.free = [try MagicCookie(databasePath: databasePath)]
        state.created = 1
    }

    /// How many cookies exist so far (busy or free).
    var createdCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return state.created
    }

    /// Runs `body` with a cookie no other thread is using.
    func withCookie<R>(_ body: (MagicCookie) throws -> R) throws -> R {
        let cookie = try checkOut()
        defer { checkIn(cookie) }
        return try body(cookie)
    }

    private func checkOut() throws -> MagicCookie {
        condition.lock()
        while true {
            if let cookie = state.free.popLast() {
                condition.unlock()
                return cookie
            }
            if state.created < capacity {
                // Reserve the slot, then load outside the lock: magic_load takes milliseconds.
                state.created += 1
                condition.unlock()
                do {
                    return try MagicCookie(databasePath: databasePath)
                } catch {
                    condition.lock()
                    state.created -= 1
                    condition.signal()
                    condition.unlock()
                    throw error
                }
            }
            condition.wait()
        }
    }

    private func checkIn(_ cookie: MagicCookie) {
        condition.lock()
        state.free.append(cookie)
        condition.signal()
        condition.unlock()
    }
}
