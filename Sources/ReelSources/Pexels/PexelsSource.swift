import AsyncHTTPClient
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1

/// Pexels (https://www.pexels.com/api/documentation/) as a `ContentSource`: popular or
/// searched videos (`/videos/popular`, `/videos/search`) and curated or searched photos
/// (`/v1/curated`, `/v1/search`).
///
/// The key goes in the `Authorization` header exactly as Pexels wants it (the bare key, no
/// scheme), only to the API, never to the hosts the files are downloaded from, and never into
/// an error or a log line. Its rate limit is honoured: when `X-Ratelimit-Remaining` reaches 0
/// the next request waits until `X-Ratelimit-Reset` (a Unix time), and a 429 is retried a
/// bounded number of times after `Retry-After`, the known reset, or a growing backoff.
public struct PexelsSource: ContentSource {
    public static let defaultBaseURL = "https://api.pexels.com"
    public let name = PexelsItems.sourceName
    /// Pexels' largest page.
    public let maxPerPage = 80

    let client: HTTPClient
    let baseURL: String
    let apiKey: String
    let clock: any SourceClock
    let policy: RateLimitPolicy
    let state = RateLimitState()
    let timeout: TimeAmount
    let downloadTimeout: TimeAmount
    let maxDownloadBytes: Int
    let onWait: @Sendable (_ seconds: Double) -> Void

    /// `onWait` hears each rate-limit wait before it starts (to tell the person why nothing moves).
    public init(
        client: HTTPClient, apiKey: String, baseURL: String = PexelsSource.defaultBaseURL, clock: any SourceClock = SystemSourceClock(),
        policy: RateLimitPolicy = RateLimitPolicy(), timeoutSeconds: Int64 = 30, downloadTimeoutSeconds: Int64 = 600,
        maxDownloadBytes: Int = 1 << 30, onWait: @escaping @Sendable (_ seconds: Double) -> Void = { _ in }
    ) throws(SourceError) {
        let key = apiKey.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !key.isEmpty else { throw .notConfigured("no Pexels key: set REELHOUSE_PEXELS_KEY or pass --key") }
        guard !key.contains(where: { $0.isNewline || $0.asciiValue.map { $0 < 0x20 } ?? false }) else {
            throw .notConfigured("the Pexels key contains control characters")
        }
        let trimmed = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        guard PexelsItems.httpURL(trimmed) != nil, URLComponents(string: trimmed)?.query == nil else {
            throw .invalidRequest("the Pexels base URL must be an http(s) address (REELHOUSE_PEXELS_URL)")
        }
        self.client = client
        self.apiKey = key
        self.baseURL = trimmed
        self.clock = clock
        self.policy = policy
        self.timeout = .seconds(timeoutSeconds)
        self.downloadTimeout = .seconds(downloadTimeoutSeconds)
        self.maxDownloadBytes = maxDownloadBytes
        self.onWait = onWait
    }

    public func page(_ query: SourceQuery, page: Int, perPage: Int) async throws(SourceError) -> SourcePage {
        guard page >= 1 else { throw .invalidRequest("pages start at 1") }
        var parameters: [(String, String)] = []
        if let search = query.search { parameters.append(("query", search)) }
        if query.search != nil, let orientation = query.orientation { parameters.append(("orientation", orientation.rawValue)) }
        parameters += [("page", String(page)), ("per_page", String(min(max(perPage, 1), maxPerPage)))]
        let path = switch (query.kind, query.search != nil) {
        case (.video, true): "/videos/search"
        case (.video, false): "/videos/popular"
        case (.photo, true): "/v1/search"
        case (.photo, false): "/v1/curated"
        }
        let body = try await getJSON(baseURL + path + "?" + Self.queryString(parameters))
        do {
            var items: [SourceItem] = []
            var warnings: [String] = []
            let next: Bool
            let total: Int?
            switch query.kind {
            case .video:
                let listing = try JSONDecoder().decode(PexelsWire.Listing<PexelsWire.Video>.self, from: body)
                for video in listing.entries { collect(PexelsItems.item(video, query: query), into: &items, warnings: &warnings) }
                (next, total) = (listing.nextPage != nil, listing.totalResults)
            case .photo:
                let listing = try JSONDecoder().decode(PexelsWire.Listing<PexelsWire.Photo>.self, from: body)
                for photo in listing.entries { collect(PexelsItems.item(photo, query: query), into: &items, warnings: &warnings) }
                (next, total) = (listing.nextPage != nil, listing.totalResults)
            }
            return SourcePage(items: items, nextPage: next ? page + 1 : nil, totalResults: total, warnings: warnings)
        } catch {
            throw .badAnswer("Pexels' listing could not be read")
        }
    }

    private func collect(_ result: Result<SourceItem, ItemProblem>, into items: inout [SourceItem], warnings: inout [String]) {
        switch result {
        case .success(let item): items.append(item)
        case .failure(let problem): warnings.append("Pexels item \(problem.id) left out: \(problem.reason)")
        }
    }

    public func download(_ item: SourceItem, to file: URL) async throws(SourceError) {
        // Written beside the target and renamed when complete, so a broken download never
        // leaves a half file that an import could pick up.
        let partial = file.appendingPathExtension("partial")
        do {
            try await fetchFile(item, to: partial)
            try Self.onDisk("saving \(file.lastPathComponent)") {
                try? FileManager.default.removeItem(at: file)
                try FileManager.default.moveItem(at: partial, to: file)
            }
        } catch {
            try? FileManager.default.removeItem(at: partial)
            throw error
        }
    }

    private func fetchFile(_ item: SourceItem, to partial: URL) async throws(SourceError) {
        let label = "the file of Pexels \(item.kind.rawValue) \(item.id)"
        let response: HTTPClientResponse
        do {
            // No Authorization here: the key is for the API, not for the file hosts.
            response = try await client.execute(HTTPClientRequest(url: item.downloadURL.absoluteString), timeout: downloadTimeout)
        } catch {
            throw .downloadFailed("\(label) could not be downloaded (\(error))")
        }
        switch response.status.code {
        case 200: break
        case 404, 410: throw .fileMissing("\(label) is gone (HTTP \(response.status.code))")
        default: throw .downloadFailed("\(label) could not be downloaded (HTTP \(response.status.code))")
        }
        let tooLarge = SourceError.downloadFailed("\(label) is larger than \(maxDownloadBytes) bytes")
        if let length = response.headers.first(name: "Content-Length").flatMap(Int.init), length > maxDownloadBytes { throw tooLarge }
        let handle = try Self.onDisk("creating \(partial.lastPathComponent)") { () throws -> FileHandle in
            guard FileManager.default.createFile(atPath: partial.path, contents: nil) else { throw CocoaError(.fileWriteUnknown) }
            return try FileHandle(forWritingTo: partial)
        }
        defer { try? handle.close() }
        var written = 0
        do {
            for try await buffer in response.body {
                written += buffer.readableBytes
                guard written <= maxDownloadBytes else { throw tooLarge }
                try Self.onDisk("writing \(partial.lastPathComponent)") { try handle.write(contentsOf: Data(buffer: buffer)) }
            }
        } catch let error as SourceError {
            throw error
        } catch {
            throw .downloadFailed("\(label) broke off (\(error))")
        }
        guard written > 0 else { throw .downloadFailed("\(label) is empty") }
    }

    /// Runs a file operation; its failure is the disk's (which stops the run), not the item's.
    private static func onDisk<T>(_ what: String, _ body: () throws -> T) throws(SourceError) -> T {
        do {
            return try body()
        } catch {
            throw .storage("\(what) failed: \((error as NSError).localizedDescription)")
        }
    }

    // MARK: - API requests and the rate limit

    private func getJSON(_ url: String) async throws(SourceError) -> Data {
        var retries = 0
        while true {
            if let wait = await state.waitBeforeRequest(now: await clock.now()) {
                try await pause(wait)
                await state.resetPassed()
            }
            let (status, headers, body) = try await fetch(url)
            let now = await clock.now()
            await state.record(
                remaining: headers.first(name: "X-Ratelimit-Remaining").flatMap { Int($0.trimmingCharacters(in: .whitespaces)) },
                resetsAt: headers.first(name: "X-Ratelimit-Reset").flatMap { Double($0.trimmingCharacters(in: .whitespaces)) }
                    .map { Date(timeIntervalSince1970: $0) }
            )
            switch status.code {
            case 200:
                return body
            case 401, 403:
                throw .keyRefused(source: name)
            case 429:
                retries += 1
                guard retries <= policy.maxRetries else {
                    throw .rateLimited(source: name, resetsAt: await state.resetsAt.flatMap { $0 > now ? $0 : nil })
                }
                let fallback = policy.fallbackBackoffSeconds * pow(2, Double(retries - 1))
                let untilReset = await state.secondsUntilReset(now: now)
                let wait = Self.retryAfter(headers, now: now) ?? untilReset ?? fallback
                try await pause(wait)
            case 500...599:
                throw .unreachable("Pexels answered HTTP \(status.code); try again later")
            default:
                throw .badAnswer("Pexels answered HTTP \(status.code)\(Self.message(body).map { ": \($0)" } ?? "")")
            }
        }
    }

    private func fetch(_ url: String) async throws(SourceError) -> (HTTPResponseStatus, HTTPHeaders, Data) {
        var request = HTTPClientRequest(url: url)
        request.headers.add(name: "Authorization", value: apiKey)
        request.headers.add(name: "Accept", value: "application/json")
        do {
            let response = try await client.execute(request, timeout: timeout)
            let body = try await response.body.collect(upTo: 8 << 20)
            return (response.status, response.headers, Data(buffer: body))
        } catch {
            throw .unreachable("Pexels could not be reached (\(Self.hostOnly(url)))")
        }
    }

    /// Waits `seconds` on the clock, or fails when that is longer than the policy allows.
    private func pause(_ seconds: Double) async throws(SourceError) {
        let now = await clock.now()
        guard seconds <= policy.maxWaitSeconds else {
            throw .rateLimited(source: name, resetsAt: now.addingTimeInterval(seconds))
        }
        onWait(seconds)
        do {
            try await clock.sleep(seconds: seconds)
        } catch {
            throw .unreachable("cancelled while waiting for Pexels' rate limit")
        }
    }

    /// `Retry-After` as seconds or as an HTTP date.
    static func retryAfter(_ headers: HTTPHeaders, now: Date) -> Double? {
        guard let value = headers.first(name: "Retry-After")?.trimmingCharacters(in: .whitespaces) else { return nil }
        if let seconds = Double(value), seconds >= 0 { return seconds }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter.date(from: value).map { max(0, $0.timeIntervalSince(now)) }
    }

    /// Pexels' own words for an error, when it sent JSON; short, never our request.
    private static func message(_ body: Data) -> String? {
        guard let parsed = try? JSONDecoder().decode(PexelsWire.ErrorBody.self, from: body) else { return nil }
        return (parsed.error ?? parsed.code).map { String($0.prefix(200)) }
    }

    private static func hostOnly(_ url: String) -> String {
        URLComponents(string: url).map { "\($0.scheme ?? "http")://\($0.host ?? "?")\($0.port.map { ":\($0)" } ?? "")" } ?? "?"
    }

    /// `name=value&…` with everything but unreserved characters percent-encoded (`+` too,
    /// which some servers read as a space).
    static func queryString(_ parameters: [(String, String)]) -> String {
        let allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        return parameters.map { name, value in
            "\(name)=\(value.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")"
        }.joined(separator: "&")
    }
}
