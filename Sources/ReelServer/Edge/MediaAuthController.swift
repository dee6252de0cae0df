import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import ReelModels
import ReelStorage

/// `GET /internal/media-auth`: the token check nginx's `auth_request` asks before it serves
/// `/media/{token}/…` or `/img/…` itself (see `NginxConfig` and docs/scale-out.md, "Edge").
///
/// nginx passes the client's URI in `X-Original-URI`; it is checked by `MediaRequestCheck`,
/// exactly as `MediaController` checks it, plus the file test `MediaController.locate` makes
/// when the media is on this node's disk (a regular file inside the post's folder).
///
/// - Allowed: `204` with `X-Reelhouse-Path: {postKey}/{listed name}` (the only path nginx ever
///   opens or fetches) and `Cache-Control: max-age=` the token's remaining seconds, at most
///   `answerSeconds`: a revoked viewer or a deleted post is refused at the edge within that
///   time too (an image signature never expires: `answerSeconds` as well), and after a secret
///   rotation no answer for an old token outlives it.
/// - Refused: always `403`, because `auth_request` passes on only 401 and 403 (any other status
///   is a 500 at the edge); the status the API's own route would answer (403 forged, 410
///   expired, 404 unknown post or file) is in `X-Reelhouse-Status`, which the nginx config
///   turns back into that status for the client, with the same JSON error body.
/// - Keys are never authorised here: nginx proxies `…/key` to the API on every request, so a
///   key stays per request, uncached and `private, no-store`. Asked anyway, this answers 404.
struct MediaAuthController {
    let check: MediaRequestCheck
    let storage: any MediaStorage

    static let originalURI = HTTPField.Name("X-Original-URI")!
    static let pathHeader = HTTPField.Name("X-Reelhouse-Path")!
    static let statusHeader = HTTPField.Name("X-Reelhouse-Status")!
    /// The download's `Content-Disposition`, which an edge serving from the media root adds.
    static let dispositionHeader = HTTPField.Name("X-Reelhouse-Disposition")!
    /// Longest the edge keeps an allowed answer: revocation (`MediaAccess`) reaches the edge
    /// within this, and a check per URI and edge every 30 s costs the API nothing it notices.
    static let answerSeconds: Int64 = 30
    /// How long the edge keeps a forged or expired answer: a burst of stale links costs the API
    /// one check per minute each. Other refusals (404: a post not there *yet* on this node) are
    /// not kept.
    static let refusalSeconds = 60

    func register(_ routes: APIRoutes) {
        routes.on(.get, "/internal/media-auth", access: .mediaToken, "The edge's check of a media URI (nginx auth_request): 204 with the file's path, or 403 with the real status") { request, context in
            try await authorize(request, context: context)
        }
    }

    func authorize(_ request: Request, context: AppRequestContext) async throws -> Response {
        do {
            let (path, seconds, disposition) = try await allowedPath(request.headers[Self.originalURI], context: context)
            var headers: HTTPFields = [Self.pathHeader: path, .cacheControl: "max-age=\(max(0, seconds))"]
            if let disposition { headers[Self.dispositionHeader] = disposition }
            return Response(status: .noContent, headers: headers)
        } catch let error as APIError {
            return Self.refusal(error)
        }
    }

    /// The file the URI names, as `{postKey}/{name}`, how many seconds the answer holds, and
    /// for the download the `Content-Disposition` naming it after the post (`DownloadName`).
    func allowedPath(_ uri: String?, context: AppRequestContext) async throws -> (String, Int64, String?) {
        guard let uri else { throw APIError.badRequest("X-Original-URI is required") }
        let allowed: MediaRequestCheck.Allowed
        switch OriginalMediaURI.parse(uri) {
        case .media(let token, let id, let name)?:
            allowed = try await check.media(token: token, id: id, name: name)
        case .image(let signature, let id, let hash, let file)?:
            allowed = try await check.image(signature: signature, id: id, hash: hash, file: file)
        case nil:
            throw APIError.notFound("media")
        }
        guard case .file(let name) = allowed.target else { throw APIError.notFound("key") }
        let postID = allowed.entry.post.id
        let postKey = String(postID)
        // Listed names are plain relative paths; one that is not means a damaged row, never a path.
        guard MediaName.isSafeRelativePath(name) else { throw APIError.notFound("media") }
        if storage.localFile(postKey: postKey, relativePath: name) != nil {
            // On this node's disk: the same file test the media route makes before serving.
            _ = try await MediaController.locate(name, postID: postID, storage: storage, logger: context.logger)
        }
        let now = Int64(check.now().timeIntervalSince1970)
        let seconds = min(allowed.expiry.map { $0 - now } ?? Self.answerSeconds, Self.answerSeconds)
        return ("\(postKey)/\(name)", seconds, DownloadName.contentDisposition(serving: name, of: allowed.entry))
    }

    static func refusal(_ error: APIError) -> Response {
        let status = error.status.code
        let body = (try? JSONEncoder().encode(APIErrorBody(code: error.code, message: error.message))) ?? Data()
        let keep = status == 403 || status == 410
        return Response(
            status: .forbidden,
            headers: [
                statusHeader: String(status), .cacheControl: keep ? "max-age=\(refusalSeconds)" : "no-store",
                .contentType: "application/json; charset=utf-8", .contentLength: String(body.count),
            ],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: body))
        )
    }
}
