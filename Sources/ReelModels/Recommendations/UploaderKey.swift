import Foundation

/// Who a post is "from" for For You: its `uploader`, else its `username` (whichever is not
/// blank). The key (trimmed, lowercased) is what affinities, hidden uploaders and the feed's
/// no-two-in-a-row rule compare; the name is what a person sees.
public enum UploaderKey {
    /// The name as shown; nil when the post has neither.
    public static func name(uploader: String?, username: String?) -> String? {
        for candidate in [uploader, username] {
            if let trimmed = candidate?.trimmingCharacters(in: .whitespacesAndNewlines), !trimmed.isEmpty { return trimmed }
        }
        return nil
    }

    public static func key(_ name: String) -> String {
        name.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
    }

    /// The key of a post; nil when it has neither name.
    public static func key(uploader: String?, username: String?) -> String? {
        name(uploader: uploader, username: username).map(key)
    }
}
