import AsyncHTTPClient
import Crypto
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1

/// A path-style S3 client (`{endpoint}/{bucket}/{key}`): every request signed with SigV4 and
/// its payload's SHA-256. Path-style works with SeaweedFS, MinIO and AWS alike, and needs no
/// DNS per bucket.
public struct S3Client: Sendable {
    public let endpoint: S3Endpoint
    public let signer: SigV4
    let http: HTTPClient
    let timeout: TimeAmount
    /// The most a GET body may hold in memory.
    public var maxBodyBytes = 1 << 30
    /// The clock signatures are dated by (tests may skew it).
    var now: @Sendable () -> Date = { Date() }

    /// The client S3 requests go through unless one is given: AsyncHTTPClient's shared one
    /// retries a refused connection until the request's deadline (here up to 120 s, sized for
    /// large objects), so a bucket that is down held an upload's PATCH for minutes. This one
    /// gives up connecting after 5 s, and the caller answers 503 (`S3Error.isUnreachable`).
    /// Process-wide and never shut down, like `HTTPClient.shared`.
    public static let defaultHTTP: HTTPClient = {
        var configuration = HTTPClient.Configuration()
        configuration.timeout.connect = .seconds(5)
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }()

    public init(endpoint: S3Endpoint, region: String, credentials: S3Credentials, http: HTTPClient = defaultHTTP, timeoutSeconds: Int64 = 120) {
        self.endpoint = endpoint
        signer = SigV4(credentials: credentials, region: region)
        self.http = http
        timeout = .seconds(timeoutSeconds)
    }

    // MARK: - Buckets

    /// Creates `bucket`; one that already exists and is ours is fine.
    public func createBucket(_ bucket: String) async throws {
        do {
            _ = try await send("PUT", bucket: bucket, key: nil)
        } catch let error as S3Error where error.code == "BucketAlreadyOwnedByYou" || error.code == "BucketAlreadyExists" {
            return
        }
    }

    // MARK: - Objects

    /// Stores `body` under `key`; returns the object's ETag. With `onlyIfAbsent` the write is
    /// conditional (`If-None-Match: *`): when the key exists already the server refuses it with
    /// 412 `PreconditionFailed` and keeps what is there, so of several writers racing for one
    /// key exactly one succeeds (AWS since 2024-08, SeaweedFS 4.x; see S3UploadStorageTests).
    @discardableResult
    public func putObject(bucket: String, key: String, body: Data, contentType: String? = nil, onlyIfAbsent: Bool = false) async throws -> String {
        var headers: [(name: String, value: String)] = []
        if let contentType { headers.append(("content-type", contentType)) }
        if onlyIfAbsent { headers.append(("if-none-match", "*")) }
        let response = try await send("PUT", bucket: bucket, key: key, headers: headers, body: body)
        return response.headers.first(name: "etag") ?? ""
    }

    /// The object's bytes (all of them, or `range`, inclusive), or nil when there is no such key.
    public func getObject(bucket: String, key: String, range: ClosedRange<Int>? = nil) async throws -> S3Object? {
        var headers: [(name: String, value: String)] = []
        if let range { headers.append(("range", "bytes=\(range.lowerBound)-\(range.upperBound)")) }
        do {
            let response = try await send("GET", bucket: bucket, key: key, headers: headers)
            let info = try Self.info(response)
            var total = info.size
            var covered: ClosedRange<Int>? = nil
            if response.status == .partialContent, let contentRange = response.headers.first(name: "content-range") {
                // `bytes a-b/total`
                let parts = contentRange.split(whereSeparator: { $0 == " " || $0 == "-" || $0 == "/" })
                guard parts.count == 4, let a = Int(parts[1]), let b = Int(parts[2]), let t = Int(parts[3]), a <= b else {
                    throw S3Error.invalidResponse("Content-Range \(contentRange)")
                }
                covered = a...b
                total = t
            }
            return S3Object(bytes: response.body, size: total, etag: info.etag, range: covered, contentType: info.contentType)
        } catch let error as S3Error where error.code == "NoSuchKey" {
            return nil
        }
    }

    /// Size, ETag and type, or nil when there is no such key.
    public func headObject(bucket: String, key: String) async throws -> S3ObjectInfo? {
        do {
            return try Self.info(try await send("HEAD", bucket: bucket, key: key))
        } catch let error as S3Error where error.code == "NoSuchKey" {
            return nil
        }
    }

    /// Deletes `key`; deleting a missing key is not an error (S3 answers 204 either way).
    public func deleteObject(bucket: String, key: String) async throws {
        _ = try await send("DELETE", bucket: bucket, key: key)
    }

    /// Deletes up to 1000 keys in one request; returns the keys the server could not delete.
    @discardableResult
    public func deleteObjects(bucket: String, keys: [String]) async throws -> [String] {
        guard !keys.isEmpty else { return [] }
        precondition(keys.count <= 1000, "DeleteObjects takes at most 1000 keys")
        let body = Data(("<Delete><Quiet>true</Quiet>" + keys.map { "<Object><Key>\(XMLTree.escape($0))</Key></Object>" }.joined() + "</Delete>").utf8)
        // S3 requires Content-MD5 on DeleteObjects (a body integrity check, not security).
        let md5 = Data(Insecure.MD5.hash(data: body)).base64EncodedString()
        let response = try await send(
            "POST", bucket: bucket, key: nil, query: [("delete", "")],
            headers: [("content-md5", md5), ("content-type", "application/xml")], body: body
        )
        guard let root = XMLTree.parse(response.body) else { return [] }
        return root.all("Error").compactMap { $0.text("Key") }
    }

    /// Deletes every object under `prefix`, page by page.
    public func deleteAll(bucket: String, prefix: String) async throws {
        var token: String? = nil
        repeat {
            let page = try await listObjects(bucket: bucket, prefix: prefix, continuationToken: token)
            let failed = try await deleteObjects(bucket: bucket, keys: page.objects.map(\.key))
            if let first = failed.first { throw S3Error.invalidResponse("could not delete \(first)") }
            token = page.nextContinuationToken
        } while token != nil
    }

    /// Copies `sourceKey` to `key` inside `bucket` on the server (no bytes through us).
    public func copyObject(bucket: String, sourceKey: String, key: String) async throws {
        let source = SigV4.canonicalURI("/\(bucket)/\(sourceKey)")
        let response = try await send("PUT", bucket: bucket, key: key, headers: [("x-amz-copy-source", source)])
        // S3 may answer 200 and report the failure in the body.
        if let root = XMLTree.parse(response.body), root.name == "Error" {
            throw S3Error.fromResponse(status: 200, body: response.body)
        }
    }

    /// One page of ListObjectsV2.
    public func listObjects(
        bucket: String, prefix: String = "", delimiter: String? = nil, continuationToken: String? = nil, maxKeys: Int = 1000
    ) async throws -> S3ListPage {
        var query: [(name: String, value: String)] = [("list-type", "2"), ("max-keys", String(maxKeys))]
        if !prefix.isEmpty { query.append(("prefix", prefix)) }
        if let delimiter { query.append(("delimiter", delimiter)) }
        if let continuationToken { query.append(("continuation-token", continuationToken)) }
        let response = try await send("GET", bucket: bucket, key: nil, query: query)
        guard let root = XMLTree.parse(response.body), root.name == "ListBucketResult" else {
            throw S3Error.invalidResponse("ListObjectsV2 answered without ListBucketResult")
        }
        let objects = root.all("Contents").compactMap { item -> S3ListPage.Entry? in
            guard let key = item.text("Key") else { return nil }
            return S3ListPage.Entry(
                key: key, size: Int(item.text("Size") ?? "") ?? 0, etag: item.text("ETag") ?? "",
                lastModified: item.text("LastModified").flatMap(Self.parseISO8601)
            )
        }
        let prefixes = root.all("CommonPrefixes").compactMap { $0.text("Prefix") }
        let truncated = root.text("IsTruncated") == "true"
        let next = truncated ? root.text("NextContinuationToken") : nil
        if truncated && (next ?? "").isEmpty { throw S3Error.invalidResponse("a truncated listing without a continuation token") }
        return S3ListPage(objects: objects, commonPrefixes: prefixes, nextContinuationToken: next)
    }

    /// Every key under `prefix` (all pages).
    public func listAll(bucket: String, prefix: String) async throws -> [S3ListPage.Entry] {
        var entries: [S3ListPage.Entry] = []
        var token: String? = nil
        repeat {
            let page = try await listObjects(bucket: bucket, prefix: prefix, continuationToken: token)
            entries += page.objects
            token = page.nextContinuationToken
        } while token != nil
        return entries
    }

    // MARK: - Multipart

    public func createMultipartUpload(bucket: String, key: String, contentType: String? = nil) async throws -> String {
        var headers: [(name: String, value: String)] = []
        if let contentType { headers.append(("content-type", contentType)) }
        let response = try await send("POST", bucket: bucket, key: key, query: [("uploads", "")], headers: headers)
        guard let id = XMLTree.parse(response.body)?.text("UploadId"), !id.isEmpty else {
            throw S3Error.invalidResponse("CreateMultipartUpload answered without an UploadId")
        }
        return id
    }

    /// Uploads part `number` (1…10000); returns its ETag for `completeMultipartUpload`.
    public func uploadPart(bucket: String, key: String, uploadID: String, number: Int, body: Data) async throws -> String {
        let response = try await send(
            "PUT", bucket: bucket, key: key, query: [("partNumber", String(number)), ("uploadId", uploadID)], body: body
        )
        guard let etag = response.headers.first(name: "etag") else { throw S3Error.invalidResponse("UploadPart answered without an ETag") }
        return etag
    }

    public func completeMultipartUpload(bucket: String, key: String, uploadID: String, parts: [(number: Int, etag: String)]) async throws {
        let xml = "<CompleteMultipartUpload>" + parts.map {
            "<Part><PartNumber>\($0.number)</PartNumber><ETag>\(XMLTree.escape($0.etag))</ETag></Part>"
        }.joined() + "</CompleteMultipartUpload>"
        let response = try await send(
            "POST", bucket: bucket, key: key, query: [("uploadId", uploadID)], headers: [("content-type", "application/xml")], body: Data(xml.utf8)
        )
        // Like CopyObject, a 200 can carry an error document.
        if let root = XMLTree.parse(response.body), root.name == "Error" {
            throw S3Error.fromResponse(status: 200, body: response.body)
        }
    }

    public func abortMultipartUpload(bucket: String, key: String, uploadID: String) async throws {
        _ = try await send("DELETE", bucket: bucket, key: key, query: [("uploadId", uploadID)])
    }

    /// Multipart uploads in progress under `prefix` (the first 1000).
    public func listMultipartUploads(bucket: String, prefix: String = "") async throws -> [S3MultipartUpload] {
        var query: [(name: String, value: String)] = [("uploads", "")]
        if !prefix.isEmpty { query.append(("prefix", prefix)) }
        let response = try await send("GET", bucket: bucket, key: nil, query: query)
        guard let root = XMLTree.parse(response.body), root.name == "ListMultipartUploadsResult" else {
            throw S3Error.invalidResponse("ListMultipartUploads answered without ListMultipartUploadsResult")
        }
        return root.all("Upload").compactMap { upload in
            guard let key = upload.text("Key"), let id = upload.text("UploadId") else { return nil }
            return S3MultipartUpload(key: key, uploadID: id, initiated: upload.text("Initiated").flatMap(Self.parseISO8601))
        }
    }

    // MARK: - Presigning

    /// A URL anyone can GET (or PUT) for `expires` seconds, no headers needed.
    public func presignedURL(method: String = "GET", bucket: String, key: String, expires: Int, date: Date? = nil) -> String {
        let request = SigV4Request(method: method, host: endpoint.hostHeader, path: "/\(bucket)/\(key)")
        let signed = signer.presign(request, expires: expires, date: date ?? now())
        return endpoint.base + SigV4.canonicalURI(request.path) + "?" + SigV4.canonicalQuery(signed.query)
    }

    // MARK: - Transport

    struct Answer {
        var status: HTTPResponseStatus
        var headers: HTTPHeaders
        var body: Data
    }

    func send(
        _ method: String, bucket: String, key: String?, query: [(name: String, value: String)] = [],
        headers: [(name: String, value: String)] = [], body: Data? = nil
    ) async throws -> Answer {
        let path = "/\(bucket)" + (key.map { "/\($0)" } ?? "")
        let unsigned = SigV4Request(method: method, host: endpoint.hostHeader, path: path, query: query, headers: headers)
        let signed = signer.sign(unsigned, payload: body.map(SigV4Payload.hashing) ?? .sha256(SigV4Payload.emptySHA256), date: now())
        var request = HTTPClientRequest(url: endpoint.base + unsigned.encodedPathAndQuery)
        request.method = HTTPMethod(rawValue: method)
        for (name, value) in signed.headers { request.headers.add(name: name, value: value) }
        if let body {
            request.body = .bytes(ByteBuffer(data: body))
        }
        let response: HTTPClientResponse
        var data = Data()
        do {
            response = try await http.execute(request, timeout: timeout)
            if method != "HEAD" {
                var buffer = try await response.body.collect(upTo: maxBodyBytes)
                data = buffer.readData(length: buffer.readableBytes) ?? Data()
            }
        } catch let error as S3Error {
            throw error
        } catch {
            throw S3Error.transport("\(method) \(path): \(error)")
        }
        guard (200..<300).contains(response.status.code) else {
            throw S3Error.fromResponse(status: Int(response.status.code), body: data)
        }
        return Answer(status: response.status, headers: response.headers, body: data)
    }

    static func info(_ answer: Answer) throws -> S3ObjectInfo {
        guard let length = answer.headers.first(name: "content-length").flatMap(Int.init) else {
            throw S3Error.invalidResponse("an object answer without Content-Length")
        }
        return S3ObjectInfo(size: length, etag: answer.headers.first(name: "etag") ?? "", contentType: answer.headers.first(name: "content-type"))
    }

    static func parseISO8601(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text) ?? ISO8601DateFormatter().date(from: text)
    }
}

/// Where requests go: `http://127.0.0.1:8333` or `https://s3.eu-west-3.amazonaws.com`.
public struct S3Endpoint: Sendable, Equatable {
    public let scheme: String
    public let host: String
    public let port: Int?

    public init(_ text: String) throws {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = components.host, !host.isEmpty, components.path.isEmpty || components.path == "/",
              components.query == nil, components.user == nil
        else { throw S3Error.invalidLocation("endpoint \(text) is not http(s)://HOST[:PORT]") }
        self.scheme = scheme
        self.host = host
        port = components.port
    }

    /// `Host` as sent and signed: the port only when it is not the scheme's default.
    public var hostHeader: String {
        guard let port, !(scheme == "http" && port == 80), !(scheme == "https" && port == 443) else { return host }
        return "\(host):\(port)"
    }

    public var base: String { "\(scheme)://\(hostHeader)" }
}

public struct S3ObjectInfo: Sendable, Equatable {
    public var size: Int
    /// As the server sent it, quotes included.
    public var etag: String
    public var contentType: String?
}

public struct S3Object: Sendable {
    /// The bytes returned: the whole object, or `range` of it.
    public var bytes: Data
    /// The whole object's size.
    public var size: Int
    public var etag: String
    public var range: ClosedRange<Int>?
    public var contentType: String?
}

public struct S3ListPage: Sendable {
    public struct Entry: Sendable, Equatable {
        public var key: String
        public var size: Int
        public var etag: String
        public var lastModified: Date?
    }

    public var objects: [Entry]
    public var commonPrefixes: [String]
    public var nextContinuationToken: String?
}

public struct S3MultipartUpload: Sendable, Equatable {
    public var key: String
    public var uploadID: String
    public var initiated: Date?
}
