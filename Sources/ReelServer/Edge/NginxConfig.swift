import Crypto
import Foundation

/// What `reelhouse edge nginx` is asked for: an nginx (1.22, Debian's package) in front of
/// one or more API nodes that serves signed media itself. Rendered to text by
/// `NginxConfig+Render.swift`; pure, so it is tested without nginx, then through nginx.
///
/// Every value here ends up inside the config file, so each is checked against a narrow
/// grammar first (`problems`): nothing a caller passes can add a directive.
public struct NginxConfig: Sendable, Equatable {
    /// `PORT`, `HOST:PORT` or `[IPv6]:PORT`, as nginx's `listen` takes it.
    public var listen: String
    /// API nodes as `HOST:PORT`; several form one upstream with failover.
    public var upstreams: [String]
    /// The folder holding `{postKey}/{file}` (the data folder's `media/`): nginx sends those
    /// bytes itself. Nil when media is in S3: nginx fetches each file once from an API node
    /// and keeps it in `cacheDir`.
    public var mediaRoot: String?
    /// Where nginx keeps the checks' answers (and, without a media root, the media). A
    /// relative path is under nginx's prefix (`-p`).
    public var cacheDir: String
    /// A tag of the API nodes' secret (`NginxConfig.secretTag(of:)`), put in front of the key of
    /// every kept check answer: after a secret rotation the printed config changes, and once
    /// nginx reloads it no answer given under the old secret is found again. Nil when the edge
    /// command could not read the secret (the config then says to empty the cache instead).
    public var secretTag: String?

    public static let defaultListen = "80"
    public static let defaultUpstream = "127.0.0.1:8080"
    public static let defaultCacheDir = "cache"

    public init(
        listen: String = NginxConfig.defaultListen, upstreams: [String] = [NginxConfig.defaultUpstream], mediaRoot: String? = nil,
        cacheDir: String = NginxConfig.defaultCacheDir, secretTag: String? = nil
    ) {
        self.listen = listen
        self.upstreams = upstreams
        self.mediaRoot = mediaRoot
        self.cacheDir = cacheDir
        self.secretTag = secretTag
    }

    /// 12 hex digits of a hash of `secret`: names it without giving any of it away.
    public static func secretTag(of secret: some DataProtocol) -> String {
        let digest = SHA256.hash(data: Data("reelhouse edge answers|".utf8) + Data(secret))
        return digest.prefix(6).map { String(format: "%02x", $0) }.joined()
    }

    /// What is wrong with the values, one sentence each; empty when the config can be rendered.
    public var problems: [String] {
        var found: [String] = []
        if !Self.isListen(listen) { found.append("--listen must be PORT, HOST:PORT or [IPv6]:PORT, not \(listen.debugDescription)") }
        if upstreams.isEmpty { found.append("give at least one --upstream HOST:PORT") }
        for upstream in upstreams where !Self.isHostPort(upstream) {
            found.append("--upstream must be HOST:PORT (an API node), not \(upstream.debugDescription)")
        }
        if let mediaRoot {
            if !mediaRoot.hasPrefix("/") || !Self.isPlainPath(mediaRoot) {
                found.append("--media-root must be an absolute path of letters, digits and ._-/+@ (the data folder's media/), not \(mediaRoot.debugDescription)")
            }
        }
        if let secretTag, secretTag.isEmpty || !secretTag.allSatisfy(\.isHexDigit) {
            found.append("the secret's tag must be hex digits, not \(secretTag.debugDescription)")
        }
        if !Self.isPlainPath(cacheDir) {
            found.append("--cache-dir must be a path of letters, digits and ._-/+@, not \(cacheDir.debugDescription)")
        }
        return found
    }

    // MARK: - Grammar

    static func isListen(_ text: String) -> Bool {
        isPort(text) || isHostPort(text)
    }

    static func isHostPort(_ text: String) -> Bool {
        guard let colon = text.lastIndex(of: ":") else { return false }
        let host = text[..<colon], port = text[text.index(after: colon)...]
        guard isPort(port), !host.isEmpty, host.utf8.count <= 253 else { return false }
        if host.hasPrefix("[") {
            // An IPv6 literal: hex digits and colons between brackets.
            return host.hasSuffix("]") && host.count > 2 && host.dropFirst().dropLast().utf8.allSatisfy { isHex($0) || $0 == UInt8(ascii: ":") }
        }
        return host.utf8.allSatisfy { isAlphanumeric($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") }
    }

    static func isPort(_ text: Substring) -> Bool {
        guard (1...5).contains(text.utf8.count), text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
              let value = Int(text)
        else { return false }
        return (1...65535).contains(value)
    }

    static func isPort(_ text: String) -> Bool { isPort(Substring(text)) }

    /// No spaces, quotes, `;`, braces, `$` or control characters: safe unquoted in nginx.
    static func isPlainPath(_ text: String) -> Bool {
        guard !text.isEmpty, text.utf8.count <= 1024 else { return false }
        let extra = Set("._-/+@".utf8)
        return text.utf8.allSatisfy { isAlphanumeric($0) || extra.contains($0) }
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    private static func isHex(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
    }
}
