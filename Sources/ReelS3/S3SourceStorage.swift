import Crypto
import Foundation
import Logging
import ReelStorage

/// Kept sources in the bucket, `{prefix}sources/{name}` (the keys `migrate-store --media-to`
/// copies a local `sources/` folder to), recorded in the store under the same `sources/{name}`
/// paths as on the disk. The importer uploads a source once (content-hash names: the same
/// content is never uploaded twice); a transcode on any node fetches it into its job's work
/// folder, in `rangeBytes` ranges so a large source never sits in memory.
public struct S3SourceStorage: SourceStorage {
    let media: S3MediaStorage
    /// Bytes per ranged GET when fetching a source.
    public var rangeBytes = 8 << 20

    public init(media: S3MediaStorage) {
        self.media = media
    }

    var client: S3Client { media.client }
    var bucket: String { media.location.bucket }

    func key(_ relativePath: String) throws -> String {
        guard let name = SourcePath.name(of: relativePath) else { throw S3Error.invalidKey("source path \(relativePath.prefix(80))") }
        return "\(media.location.prefix)sources/\(name)"
    }

    public func keep(_ file: URL, contentHash: String) async throws -> String {
        let relative = "sources/" + SourcePath.name(contentHash: contentHash, extension: file.pathExtension)
        let key = try key(relative)
        if try await client.headObject(bucket: bucket, key: key) != nil { return relative }
        // Multipart above 16 MiB, aborted on failure: an object appears whole or not at all.
        try await media.upload(file, key: key, relative: relative)
        return relative
    }

    public func keepSubtitles(_ vtt: Data, tag: String) async throws -> String {
        let hash = SigV4.hex(SHA256.hash(data: vtt))
        let relative = "sources/\(hash).\(tag).vtt"
        try await client.putObject(bucket: bucket, key: try key(relative), body: vtt, contentType: "text/vtt")
        return relative
    }

    /// Fetches the source into `folder/{name}` (written under a temporary name, then renamed).
    public func localCopy(of relativePath: String, in folder: URL) async throws -> URL? {
        let key = try key(relativePath)
        guard let info = try await client.headObject(bucket: bucket, key: key) else { return nil }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let destination = folder.appendingPathComponent(String(key.split(separator: "/").last ?? "source"))
        let partial = folder.appendingPathComponent(".fetch-\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: partial.path, contents: nil), let handle = FileHandle(forWritingAtPath: partial.path) else {
            throw S3Error.invalidKey("cannot create a file in \(folder.path)")
        }
        do {
            defer { try? handle.close() }
            var start = 0
            while start < info.size {
                let end = min(start + rangeBytes, info.size) - 1
                guard let object = try await client.getObject(bucket: bucket, key: key, range: start...end),
                      object.bytes.count == end - start + 1
                else {
                    throw S3Error.invalidResponse("source \(key) changed or vanished while it was fetched")
                }
                try handle.write(contentsOf: object.bytes)
                start = end + 1
            }
        } catch {
            try? FileManager.default.removeItem(at: partial)
            throw error
        }
        try? FileManager.default.removeItem(at: destination)
        try FileManager.default.moveItem(at: partial, to: destination)
        return destination
    }

    public func removeSource(_ relativePath: String) async {
        guard let key = try? key(relativePath) else { return }
        do { try await client.deleteObject(bucket: bucket, key: key) } catch {
            media.logger.warning("could not delete a kept source", metadata: ["source": "\(relativePath)", "error": "\(error)"])
        }
    }
}
