import Foundation

/// A value behind a lock.
package final class LockedBox<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    package init(_ value: Value) { self.value = value }
    package func get() -> Value { lock.held { value } }
    package func set(_ newValue: Value) { lock.held { value = newValue } }
    package func update(_ change: (inout Value) -> Void) { lock.held { change(&value) } }
}
