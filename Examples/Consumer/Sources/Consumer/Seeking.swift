import Foundation
import ImageProbe

/// A reader that seeks, by hand (`ImageInfo(contentsOfFile:)` does this for you).
func seeking(_ file: FileHandle, _ scanner: inout HeaderScanner) throws {
    if scanner.pendingSkip > 0 {
        try file.seek(toOffset: file.offset() + scanner.pendingSkip)
        scanner.skip(scanner.pendingSkip)
    }
}
