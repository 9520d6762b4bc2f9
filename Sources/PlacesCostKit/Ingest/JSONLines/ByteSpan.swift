/// A byte range of a line: where a value's text starts and how many bytes it has.
package struct ByteSpan: Equatable, Sendable {
    package var start: Int32
    package var count: Int32

    package init(start: Int32, count: Int32) {
        self.start = start
        self.count = count
    }
}
