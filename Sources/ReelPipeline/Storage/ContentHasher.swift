import Crypto
import Foundation
import ReelModels
import ReelStorage

/// SHA-256 of file contents, read in bounded chunks so a 4 GB clip costs 1 MB of memory.
public enum ContentHasher {
    public static func sha256(of url: URL) throws -> String {
        guard let handle = try? FileHandle(forReadingFrom: url) else {
            throw PipelineError.storage("cannot read \(url.path)")
        }
        defer { try? handle.close() }
        var hasher = SHA256()
        while true {
            let chunk = try handle.read(upToCount: 1 << 20) ?? Data()
            if chunk.isEmpty { break }
            hasher.update(data: chunk)
        }
        return Hex.lowercase(hasher.finalize())
    }

    public static func sha256(of data: Data) -> String {
        Hex.lowercase(SHA256.hash(data: data))
    }

    /// A post's identity within `scope` (nil: the content hash itself), for content that may be
    /// stored twice on purpose, such as a clip posted as a story that is also a post.
    public static func scoped(_ contentHash: String, by scope: String?) -> String {
        guard let scope else { return contentHash }
        return sha256(of: Data("\(contentHash)\n\(scope)".utf8))
    }

    /// A post made of several files (a carousel) is identified by the hash of its parts' hashes.
    public static func combine(_ hashes: [String]) -> String {
        hashes.count == 1 ? hashes[0] : sha256(of: Data(hashes.joined(separator: "\n").utf8))
    }
}
