#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A plain POSIX thread running one closure, joined on request: the download engine and the
/// test server each run their loop on one, and must know when it has ended.
package final class JoinableThread: @unchecked Sendable {
    private var thread: pthread_t?
    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    package init?(_ run: @escaping @Sendable () -> Void) {
        let body = Unmanaged.passRetained(Body(run)).toOpaque()
        #if canImport(Glibc)
        var handle = pthread_t()
        #else
        var handle: pthread_t?
        #endif
        let started = pthread_create(&handle, nil, { arg in
            Unmanaged<Body>.fromOpaque(arg!).takeRetainedValue().run()
            return nil
        }, body)
        guard started == 0 else {
            Unmanaged<Body>.fromOpaque(body).release()
            return nil
        }
        thread = handle
    }

    /// Waits for the closure to return. Call once, from another thread.
    package func join() {
        guard let thread else { return }
        self.thread = nil
        pthread_join(thread, nil)
    }
}
