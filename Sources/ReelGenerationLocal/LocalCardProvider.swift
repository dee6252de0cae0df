import Foundation
import ReelGeneration
import ReelMedia
import ReelProcess

/// The embedded generation provider: renders the prompt as an animated text card over a
/// generated background with ffmpeg. Needs no network and no account, costs a few seconds of
/// CPU, and is named for what it is in the UI ("Local text card"), never passed off as AI video.
///
/// Jobs live in memory: after a restart a job id is unknown (`.notFound`) and the generation
/// service simply submits again, which for a render of a few seconds is the right trade.
public actor LocalCardProvider: GenerationProvider {
    public nonisolated let id = "local"
    public nonisolated let displayName = "Local text card (rendered on this server with ffmpeg, no AI)"
    public nonisolated let isLocal = true

    private let runner: any ProcessRunner
    private let workRoot: URL
    private let fontFile: String?
    /// nil while rendering, then the outcome.
    private var jobs: [String: Result<URL, GenerationError>?] = [:]

    public init(runner: any ProcessRunner, workRoot: URL, fontFile: String? = LocalCardProvider.defaultFont) {
        self.runner = runner
        self.workRoot = workRoot
        self.fontFile = fontFile
    }

    public static var defaultFont: String? {
        let path = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
        return FileManager.default.fileExists(atPath: path) ? path : nil
    }

    public func submit(_ request: GenerationRequest) async throws(GenerationError) -> String {
        let request = try request.validated()
        let jobID = "card_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        let folder = workRoot.appendingPathComponent(jobID, isDirectory: true)
        let runner = self.runner
        let fontFile = self.fontFile
        jobs[jobID] = .some(nil)
        Task {
            let outcome = await Self.render(request, folder: folder, runner: runner, fontFile: fontFile)
            self.finish(jobID, outcome)
        }
        return jobID
    }

    private func finish(_ jobID: String, _ outcome: Result<URL, GenerationError>) {
        guard jobs[jobID] != nil else { return }
        jobs[jobID] = .some(outcome)
    }

    private static func render(_ request: GenerationRequest, folder: URL, runner: any ProcessRunner, fontFile: String?) async -> Result<URL, GenerationError> {
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let textFile = folder.appendingPathComponent("prompt.txt")
            try Data(CardCommand.wrap(request.prompt).utf8).write(to: textFile)
            let output = folder.appendingPathComponent("card.mp4")
            let command = CardCommand(
                background: CardCommand.Background(rawValue: request.style.rawValue) ?? .aurora,
                width: request.width, height: request.height, seconds: request.seconds,
                textFile: textFile.path, fontFile: fontFile, output: output.path
            )
            let result = try await runner.run("ffmpeg", command.arguments)
            guard result.succeeded else { return .failure(.failed("rendering the card failed: \(result.stderrTail)")) }
            return .success(output)
        } catch {
            return .failure(.failed("rendering the card failed: \(error)"))
        }
    }

    public func status(of jobID: String) async throws(GenerationError) -> GenerationProgress {
        guard let state = jobs[jobID] else { throw .notFound("no local job \(jobID)") }
        switch state {
        case nil: return .running(nil)
        case .success?: return .completed
        case .failure(let error)?: return .failed(error)
        }
    }

    public func download(_ jobID: String, to file: URL) async throws(GenerationError) {
        guard let state = jobs[jobID] else { throw .notFound("no local job \(jobID)") }
        guard case .success(let rendered)? = state else { throw .failed("the card is not rendered") }
        do {
            if FileManager.default.fileExists(atPath: file.path) { try FileManager.default.removeItem(at: file) }
            try FileManager.default.moveItem(at: rendered, to: file)
            try? FileManager.default.removeItem(at: rendered.deletingLastPathComponent())
        } catch {
            throw .failed("keeping the rendered card failed: \(error)")
        }
        jobs[jobID] = nil
    }
}
