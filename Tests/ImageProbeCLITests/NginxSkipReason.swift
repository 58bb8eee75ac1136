import ImageProbeTestSupport
import Testing

extension NginxServer {
    /// Why the network tests don't run here, for the skip message.
    static var skipReason: Comment { Comment(rawValue: skipMessage) }
}
