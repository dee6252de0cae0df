import ReelMedia
import ReelModels
import Testing

@Suite("Video filter presets")
struct VideoFilterChainTests {
    @Test("every look but none is a plain, label-free chain that TranscodeCommand can prefix")
    func chains() {
        #expect(VideoFilter.none.ffmpegChain == nil)
        for filter in VideoFilter.allCases where filter != .none {
            let chain = filter.ffmpegChain ?? ""
            #expect(!chain.isEmpty && !chain.contains("[") && !chain.contains(";"), "\(filter)")
        }
        #expect(Set(VideoFilter.allCases.map(\.rawValue)).isSuperset(of: ["none", "mono", "vivid", "warm", "cool", "vintage"]))
    }
}
