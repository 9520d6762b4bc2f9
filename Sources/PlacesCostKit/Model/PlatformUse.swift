/// Calls seen from one platform and API generation.
struct PlatformUse: Sendable, Equatable {
    var platform: ClientPlatform
    var generation: APIGeneration
    var calls: Int

    init(platform: ClientPlatform, generation: APIGeneration, calls: Int) {
        self.platform = platform
        self.generation = generation
        self.calls = calls
    }
}
