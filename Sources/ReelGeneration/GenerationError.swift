/// Everything that can go wrong while generating, in words a person can act on.
public enum GenerationError: Error, Sendable, Equatable {
    /// The request itself is unacceptable (empty prompt, unsupported size): do not retry.
    case invalidRequest(String)
    /// The provider refused the content (moderation): do not retry the same prompt.
    case rejected(String)
    /// The provider ran the job and it failed.
    case failed(String)
    /// Network trouble, rate limits, 5xx: worth retrying later.
    case transient(String)
    /// The provider cannot be used as configured (no API key).
    case notConfigured(String)
    /// The provider does not know the job (expired or deleted).
    case notFound(String)

    public var message: String {
        switch self {
        case .invalidRequest(let text), .rejected(let text), .failed(let text), .transient(let text),
             .notConfigured(let text), .notFound(let text):
            text
        }
    }

    public var isRetryable: Bool {
        if case .transient = self { return true }
        return false
    }

    /// A short machine-readable name for APIs and logs.
    public var code: String {
        switch self {
        case .invalidRequest: "invalid_request"
        case .rejected: "rejected"
        case .failed: "failed"
        case .transient: "transient"
        case .notConfigured: "not_configured"
        case .notFound: "not_found"
        }
    }
}
