/// What ingest read from one block of input (a few MB of one file): its calls, split by the
/// partition that walks, checks and counts them, and what was rejected or skipped on the way.
struct CallBlock {
    /// The block's place in the input; blocks are merged in this order.
    var index: Int
    /// The file's position among the inputs, and its name as diagnostics show it.
    var fileIndex: Int
    var fileName: String
    /// Lines in the block, so diagnostics' block-relative lines become file lines.
    var lineCount = 0
    var partitions: [PartitionCalls]
    var rejected = 0
    var outsideWindow = 0
    /// When the calls outside `--since`/`--until` were made.
    var outsidePeriod = TimeSpan()
    var skippedRequests = 0
    var unbilled = UnbilledRequests()
    var hosts = RequestHosts()
    var bodiesUnknown = 0
    /// Valid canonical records that carry typed text (`input`) where a length would do.
    var typedTextRecords = 0
    /// The first diagnostics, with lines counted from the block's start (1 = its first line).
    var diagnostics: [Diagnostic] = []
    /// A file's warnings about the whole file (`LogReader.Output.fileWarnings`).
    var fileWarnings: [Diagnostic] = []
    var diagnosticCount = 0
    /// Whether the diagnostics' lines are the file's (a reader's), not counted from the block.
    var linesAreAbsolute = false
    var firstCall: Int64?
    var lastCall: Int64?

    init(index: Int, fileIndex: Int, fileName: String, partitions: [PartitionCalls]) {
        self.index = index
        self.fileIndex = fileIndex
        self.fileName = fileName
        self.partitions = partitions
    }
}
