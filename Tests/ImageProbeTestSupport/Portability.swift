import Dispatch
import Foundation

#if canImport(Glibc)
import Glibc
/// `SOCK_STREAM` for `socket(2)`: an enum on Glibc, a plain `Int32` on Darwin.
package let streamSocket = Int32(SOCK_STREAM.rawValue)
/// `posix_spawn_file_actions_t`: a struct on Glibc, an opaque pointer on Darwin.
package func newSpawnActions() -> posix_spawn_file_actions_t { posix_spawn_file_actions_t() }
/// `ru_maxrss` is in KiB on Linux, in bytes on Darwin.
package let maxrssPerKiB = 1
#elseif canImport(Musl)
import Musl
package let streamSocket = SOCK_STREAM
package func newSpawnActions() -> posix_spawn_file_actions_t { posix_spawn_file_actions_t() }
package let maxrssPerKiB = 1
#elseif canImport(Darwin)
import Darwin
package let streamSocket = SOCK_STREAM
package func newSpawnActions() -> posix_spawn_file_actions_t? { nil }
package let maxrssPerKiB = 1024
#endif

// Timing on APIs every declared Apple floor has (macOS 10.15, iOS 13, tvOS 13, watchOS 6):
// `ContinuousClock`, `Duration` and `Task.sleep(for:)` need macOS 13 / iOS 16, and these tests
// must build for a Mac at the package's floor.

/// A moment on the monotonic clock (`DispatchTime`).
package struct Moment: Comparable, Sendable {
    package var nanoseconds: UInt64

    package static var now: Moment { Moment(nanoseconds: DispatchTime.now().uptimeNanoseconds) }

    package static func < (left: Moment, right: Moment) -> Bool { left.nanoseconds < right.nanoseconds }

    package static func - (left: Moment, right: Moment) -> Elapsed {
        Elapsed(seconds: (Double(left.nanoseconds) - Double(right.nanoseconds)) / 1e9)
    }

    package static func + (left: Moment, right: Elapsed) -> Moment {
        Moment(nanoseconds: left.nanoseconds &+ UInt64(max(0, right.seconds) * 1e9))
    }
}

/// A span of time, in seconds.
package struct Elapsed: Comparable, Sendable, CustomStringConvertible {
    package var seconds: Double

    package static func seconds(_ value: Double) -> Elapsed { Elapsed(seconds: value) }
    package static func milliseconds(_ value: Double) -> Elapsed { Elapsed(seconds: value / 1000) }
    package static func < (left: Elapsed, right: Elapsed) -> Bool { left.seconds < right.seconds }

    package var description: String { String(format: "%.3f s", seconds) }
}

/// `Task.sleep(for: .milliseconds(n))`, on the API macOS 10.15 has.
package func pause(milliseconds: UInt64) async throws {
    try await Task.sleep(nanoseconds: milliseconds * 1_000_000)
}

extension NSLock {
    /// `withLock`, which needs macOS 13 / iOS 16.
    package func held<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock()
        defer { unlock() }
        return try body()
    }
}
