import Foundation

/// Uploads one file resumably: creates the upload (or continues the one at `location`), sends
/// it in chunks read from disk one at a time, and recovers from a 409 by asking the server for
/// its offset. A dropped connection ends `upload` with `.offline`; call it again with the same
/// `location` (persisted from `onCreated`) and it continues where the server stopped.
public struct ReelUploader: Sendable {
    public let client: ReelClient
    public var chunkSize: Int

    public init(client: ReelClient, chunkSize: Int = 2 * 1024 * 1024) {
        self.client = client
        self.chunkSize = max(1, chunkSize)
    }

    public func upload(
        file: URL, metadata: [String: String], location: String? = nil,
        onCreated: @Sendable (String) async -> Void = { _ in },
        onProgress: @Sendable (_ sent: Int64, _ total: Int64) async -> Void = { _, _ in }
    ) async throws(ReelAPIError) -> UploadStatus {
        let length: Int64
        let handle: FileHandle
        do {
            length = (try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber)?.int64Value ?? 0
            handle = try FileHandle(forReadingFrom: file)
        } catch {
            throw .rejected(status: 0, code: "unreadable_file", message: "cannot read \(file.lastPathComponent): \(error)")
        }
        defer { try? handle.close() }

        var status: UploadStatus
        if let location {
            status = try await client.uploadStatus(at: location)
        } else {
            status = try await client.createUpload(length: length, metadata: metadata)
            await onCreated(status.location)
        }
        var conflicts = 0
        while !status.isComplete {
            await onProgress(status.offset, length)
            let chunk: Data
            do {
                try handle.seek(toOffset: UInt64(status.offset))
                chunk = try handle.read(upToCount: chunkSize) ?? Data()
            } catch {
                throw .rejected(status: 0, code: "unreadable_file", message: "cannot read \(file.lastPathComponent): \(error)")
            }
            do throws(ReelAPIError) {
                let next = try await client.appendUpload(at: status.location, offset: status.offset, chunk: chunk)
                guard next.offset > status.offset || next.isComplete else {
                    throw ReelAPIError.decoding("the server accepted no bytes at offset \(status.offset)")
                }
                status = next
                conflicts = 0
            } catch {
                // Someone (an earlier attempt) moved the offset: continue from the server's.
                guard case .rejected(status: 409, code: _, message: _) = error, conflicts < 3 else { throw error }
                conflicts += 1
                status = try await client.uploadStatus(at: status.location)
            }
        }
        await onProgress(length, length)
        return status
    }
}
