import Crypto
import Foundation

/// `reelhouse migrate-store --media-to s3://…`: a local library's published folders (and kept
/// sources) copied into the bucket, skipping what is already there with the same size and ETag,
/// so an interrupted copy resumes where it stopped.
extension S3MediaStorage {
    public enum CopyOutcome: Sendable, Equatable {
        case copied
        case skipped
    }

    /// Publishes a copy of a local post folder (`media/{postKey}` of a data folder) unless the
    /// bucket already has that post published with every file of the same size and content.
    public func copyIn(postFolder folder: URL, postKey: String) async throws -> CopyOutcome {
        try Self.checkPostKey(postKey)
        let files = try Self.regularFiles(under: folder)
        if try await hasPublished(files, of: folder, postKey: postKey) { return .skipped }
        try await publish(from: folder, postKey: postKey)
        return .copied
    }

    /// Copies a kept source (`sources/{name}`) to `{prefix}sources/{name}` unless the same bytes
    /// are there.
    public func copyIn(source file: URL) async throws -> CopyOutcome {
        let name = file.lastPathComponent
        guard Self.isPlainRelativePath(name) else { throw S3Error.invalidKey("source \(name)") }
        let key = "\(location.prefix)sources/\(name)"
        if let stored = try await client.headObject(bucket: bucket, key: key), try sameContent(file, stored.size, stored.etag) {
            return .skipped
        }
        try await upload(file, key: key, relative: name)
        return .copied
    }

    func hasPublished(_ files: [String], of folder: URL, postKey: String) async throws -> Bool {
        let media = mediaPrefix(postKey)
        guard try await client.headObject(bucket: bucket, key: media + Self.markerName) != nil else { return false }
        let stored = try await client.listAll(bucket: bucket, prefix: media)
        var byName: [String: S3ListPage.Entry] = [:]
        for entry in stored { byName[String(entry.key.dropFirst(media.count))] = entry }
        guard Set(byName.keys).subtracting([Self.markerName]) == Set(files) else { return false }
        for relative in files {
            guard let entry = byName[relative], try sameContent(folder.appendingPathComponent(relative), entry.size, entry.etag) else {
                return false
            }
        }
        return true
    }

    /// Whether a local file has `size` bytes and the content an S3 `etag` names: the MD5 of a
    /// single-part object, or for one uploaded in parts of `partSize` the MD5 of the parts'
    /// MD5s with `-N` (a server-side copy may carry either form).
    func sameContent(_ file: URL, _ size: Int, _ etag: String) throws -> Bool {
        guard try Self.size(of: file) == size else { return false }
        let tag = etag.trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        let handle = try FileHandle(forReadingFrom: file)
        defer { try? handle.close() }
        var whole = Insecure.MD5()
        var parts: [Data] = []
        while let chunk = try handle.read(upToCount: partSize), !chunk.isEmpty {
            whole.update(data: chunk)
            parts.append(Data(Insecure.MD5.hash(data: chunk)))
        }
        if tag == SigV4.hex(whole.finalize()) { return true }
        let multipart = SigV4.hex(Insecure.MD5.hash(data: parts.reduce(Data(), +))) + "-\(parts.count)"
        return tag == multipart
    }
}
