import Foundation
import ReelGeneration
import ReelMedia
import Testing

@Suite("Generation requests, poll schedule and the card command")
struct GenerationBasicsTests {
    @Test("requests are trimmed and checked before anything is queued")
    func validation() throws {
        #expect(try GenerationRequest(prompt: "  a cat  ").validated().prompt == "a cat")
        #expect(throws: GenerationError.invalidRequest("the prompt is empty")) { try GenerationRequest(prompt: " \n").validated() }
        #expect(throws: GenerationError.self) { try GenerationRequest(prompt: String(repeating: "x", count: 1001)).validated() }
        #expect(throws: GenerationError.invalidRequest("seconds must be one of 4, 8, 12")) { try GenerationRequest(prompt: "a", seconds: 5).validated() }
        #expect(throws: GenerationError.invalidRequest("size must be 720x1280 or 1280x720")) {
            try GenerationRequest(prompt: "a", width: 1000, height: 1000).validated()
        }
        #expect(try GenerationRequest(prompt: "a", width: 1280, height: 720).validated().width == 1280)
    }

    @Test("polls back off geometrically up to a cap, and stop at the deadline")
    func pollSchedule() {
        let schedule = PollSchedule(initial: 1, factor: 2, maximum: 10, deadline: 60)
        #expect((0..<6).map { schedule.delay(attempt: $0) } == [1, 2, 4, 8, 10, 10])
        #expect(schedule.delay(attempt: 10_000) == 10)
        #expect(schedule.allows(elapsed: 59.9) && !schedule.allows(elapsed: 60))
    }

    @Test("the prompt reaches ffmpeg only through a text file; every style has a source")
    func cardCommand() {
        for background in CardCommand.Background.allCases {
            let command = CardCommand(background: background, width: 720, height: 1280, seconds: 4,
                                      textFile: "/tmp/x/prompt.txt", fontFile: "/f.ttf", output: "/tmp/x/card.mp4")
            let arguments = command.arguments
            #expect(arguments.last == "/tmp/x/card.mp4")
            #expect(arguments.contains { $0.contains("textfile=/tmp/x/prompt.txt:expansion=none") })
            #expect(arguments[arguments.firstIndex(of: "-t")! + 1] == "4")
        }
        let noFont = CardCommand(background: .mono, width: 720, height: 1280, seconds: 4, textFile: "/p", fontFile: nil, output: "/o.mp4")
        #expect(!noFont.arguments.contains { $0.contains("drawtext") })
    }

    @Test("prompts wrap at spaces, long words are cut, and overlong prompts end in an ellipsis")
    func wrapping() {
        #expect(CardCommand.wrap("a fox in the snow at dawn", width: 10) == "a fox in\nthe snow\nat dawn")
        #expect(CardCommand.wrap("abcdefghijklmnop", width: 5) == "abcde\nfghij\nklmno\np")
        #expect(CardCommand.wrap(String(repeating: "word ", count: 40), width: 10, maxLines: 3) == "word word\nword word\nword word…")
        #expect(CardCommand.wrap("   ") == "")
    }
}
