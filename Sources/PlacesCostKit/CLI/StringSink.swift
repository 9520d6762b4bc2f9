/// Collects text in memory, for tests that run commands in-process.
final class StringSink: OutputSink {
    private(set) var text = ""
    let isTerminal = false

    init() {}

    func write(_ text: String) {
        self.text += text
    }
}
