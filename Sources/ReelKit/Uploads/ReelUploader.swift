import Foundation
import ReelModels

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
            if status.offset >= length, length > 0 || status.jobID != nil {
                // Every byte is there; the server is still turning them into a post.
                status = try await awaitImport(status)
                break
            }
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

    /// The server records a complete upload's import as a job and usually answers the last
    /// chunk with the post it became; when the import takes longer, this asks again (HEAD,
    /// backing off to 2 s, for up to `importWaitSeconds`) until the post is named. A refused
    /// file is `.rejected(422, "invalid_media", reason)`, as the last chunk would have been.
    func awaitImport(_ pending: UploadStatus, importWaitSeconds: Double = 300) async throws(ReelAPIError) -> UploadStatus {
        var status = pending
        var delay = 0.2
        let deadline = Date().addingTimeInterval(importWaitSeconds)
        while !status.isComplete {
            guard Date() < deadline else {
                throw .rejected(status: 0, code: "import_pending", message: "the upload is complete but the server has not imported it yet")
            }
            do {
                try await Task.sleep(for: .seconds(delay))
            } catch {
                throw .offline("stopped while waiting for the import")
            }
            delay = min(2, delay * 2)
            do throws(ReelAPIError) {
                status = try await client.uploadStatus(at: status.location)
            } catch {
                // The server drops the record of a file it refused; its import job says why.
                guard case .notFound = error, let jobID = pending.jobID else { throw error }
                let job = try await client.job(id: jobID)
                throw .rejected(status: 422, code: "invalid_media", message: job.lastError ?? "the server refused the upload")
            }
        }
        return status
    }
}
