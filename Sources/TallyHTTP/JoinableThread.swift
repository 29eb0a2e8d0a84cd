import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A thread that can be waited for until it has ended, its thread-local destructors included (`pthread_join`),
/// which Foundation's `Thread` cannot be: a server that exits while its threads are still ending races them in
/// the libraries' exit handlers.
final class JoinableThread {
    #if canImport(Darwin)
    private var handle: pthread_t?
    #else
    private var handle = pthread_t()
    #endif
    private var joined = false

    /// Starts `body` on a new thread named `name` (at most 15 bytes are kept); nil when the system refuses a thread.
    init?(name: String, _ body: @escaping @Sendable () -> Void) {
        let start = Unmanaged.passRetained(Start(name: name, body: body)).toOpaque()
        guard pthread_create(&handle, nil, joinableThreadMain, start) == 0 else {
            Unmanaged<Start>.fromOpaque(start).release()
            return nil
        }
    }

    /// Returns once the thread has ended. Call it once, from another thread.
    func join() {
        guard !joined else { return }
        joined = true
        #if canImport(Darwin)
        if let handle { pthread_join(handle, nil) }
        #else
        pthread_join(handle, nil)
        #endif
    }

    /// What the new thread runs, handed over as its argument.
    fileprivate final class Start {
        let name: String
        let body: @Sendable () -> Void
        init(name: String, body: @escaping @Sendable () -> Void) {
            self.name = name
            self.body = body
        }
    }
}

#if canImport(Darwin)
private func joinableThreadMain(_ argument: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer? {
    runJoinableThread(argument)
}
#else
private func joinableThreadMain(_ argument: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    guard let argument else { return nil }
    return runJoinableThread(argument)
}
#endif

private func runJoinableThread(_ argument: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer? {
    let start = Unmanaged<JoinableThread.Start>.fromOpaque(argument).takeRetainedValue()
    // Foundation names the current thread for the system (pthread_setname_np, which Glibc's module lacks).
    Thread.current.name = String(decoding: start.name.utf8.prefix(15), as: UTF8.self)
    start.body()
    return nil
}
