import Dispatch
import Foundation

#if canImport(Glibc)
import Glibc
/// `SOCK_STREAM` for `socket(2)`: an enum on Glibc, a plain `Int32` on Darwin.
let streamSocket = Int32(SOCK_STREAM.rawValue)
/// `posix_spawn_file_actions_t`: a struct on Glibc, an opaque pointer on Darwin.
func newSpawnActions() -> posix_spawn_file_actions_t { posix_spawn_file_actions_t() }
/// `ru_maxrss` is in KiB on Linux, in bytes on Darwin.
let maxrssPerKiB = 1
#elseif canImport(Musl)
import Musl
let streamSocket = SOCK_STREAM
func newSpawnActions() -> posix_spawn_file_actions_t { posix_spawn_file_actions_t() }
let maxrssPerKiB = 1
#elseif canImport(Darwin)
import Darwin
let streamSocket = SOCK_STREAM
func newSpawnActions() -> posix_spawn_file_actions_t? { nil }
let maxrssPerKiB = 1024
#endif

// Timing on APIs every declared Apple floor has (macOS 10.15, iOS 13, tvOS 13, watchOS 6):
// `ContinuousClock`, `Duration` and `Task.sleep(for:)` need macOS 13 / iOS 16, and these tests
// must build for a Mac at the package's floor.

/// A moment on the monotonic clock (`DispatchTime`).
struct Moment: Comparable, Sendable {
    var nanoseconds: UInt64

    static var now: Moment { Moment(nanoseconds: DispatchTime.now().uptimeNanoseconds) }

    static func < (left: Moment, right: Moment) -> Bool { left.nanoseconds < right.nanoseconds }

    static func - (left: Moment, right: Moment) -> Elapsed {
        Elapsed(seconds: (Double(left.nanoseconds) - Double(right.nanoseconds)) / 1e9)
    }

    static func + (left: Moment, right: Elapsed) -> Moment {
        Moment(nanoseconds: left.nanoseconds &+ UInt64(max(0, right.seconds) * 1e9))
    }
}

/// A span of time, in seconds.
struct Elapsed: Comparable, Sendable, CustomStringConvertible {
    var seconds: Double

    static func seconds(_ value: Double) -> Elapsed { Elapsed(seconds: value) }
    static func milliseconds(_ value: Double) -> Elapsed { Elapsed(seconds: value / 1000) }
    static func < (left: Elapsed, right: Elapsed) -> Bool { left.seconds < right.seconds }

    var description: String { String(format: "%.3f s", seconds) }
}

/// `Task.sleep(for: .milliseconds(n))`, on the API macOS 10.15 has.
func pause(milliseconds: UInt64) async throws {
    try await Task.sleep(nanoseconds: milliseconds * 1_000_000)
}

extension NSLock {
    /// `withLock`, which needs macOS 13 / iOS 16.
    func held<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock()
        defer { unlock() }
        return try body()
    }
}
