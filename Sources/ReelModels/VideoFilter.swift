/// A look chosen when recording or uploading, applied for real by the server while it
/// transcodes (so every client sees it), not only as a preview effect in one browser.
public enum VideoFilter: String, Codable, Sendable, CaseIterable {
    case none
    case mono
    case vivid
    case warm
    case cool
    case vintage
}
