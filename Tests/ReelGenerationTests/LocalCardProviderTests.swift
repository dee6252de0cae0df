import Foundation
import ReelGeneration
import ReelGenerationLocal
import ReelPipeline
import ReelProcess
import Testing
import ReelTestFiles

@Suite("The local text-card provider, with real ffmpeg")
struct LocalCardProviderTests {
    @Test("renders a 9:16 card from the prompt, reports progress, and hands the file over")
    func renders() async throws {
        let root = TemporaryFolder.fresh("card")
        defer { try? FileManager.default.removeItem(at: root) }
        let provider = LocalCardProvider(runner: FoundationProcessRunner(), workRoot: root)
        let id = try await provider.submit(GenerationRequest(prompt: "Sunrise over %{localtime} the harbour: 'quotes' \\ and more", style: .matrix))
        var state = try await provider.status(of: id)
        let deadline = Date().addingTimeInterval(60)
        while state != .completed, Date() < deadline {
            if case .failed(let error) = state { Issue.record("render failed: \(error.message)"); return }
            try await Task.sleep(for: .milliseconds(100))
            state = try await provider.status(of: id)
        }
        #expect(state == .completed)
        let file = root.appendingPathComponent("result.mp4")
        try await provider.download(id, to: file)
        let probe = try await FoundationProcessRunner().run("ffprobe", [
            "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=width,height:format=duration", "-of", "csv=p=0", file.path,
        ])
        let text = String(decoding: probe.stdout, as: UTF8.self)
        #expect(text.contains("720,1280"))
        let duration = Double(text.split(separator: "\n").last.map(String.init) ?? "") ?? 0
        #expect(abs(duration - 4) < 0.2)
        await #expect(throws: GenerationError.notFound("no local job \(id)")) { _ = try await provider.status(of: id) }
    }

    @Test("an unknown job is not found, so the service resubmits after a restart")
    func unknown() async throws {
        let provider = LocalCardProvider(runner: FoundationProcessRunner(), workRoot: TemporaryFolder.fresh("card-work"))
        await #expect(throws: GenerationError.notFound("no local job card_x")) { _ = try await provider.status(of: "card_x") }
    }
}
