/// The member layouts of the last few shapes of JSON Lines record a worker has read, which
/// `FastJSONLineDecoder` matches a line against instead of walking it.
///
/// A logger writes a handful of record shapes (an autocomplete call, a details call), each with
/// the same keys in the same order and the same separators. A layout keeps, for each member, the
/// exact bytes from the end of the previous value to the start of this one (`,"input":` and any
/// whitespace), called its gap, with the key the gap names; and the gap after the last value
/// (`}`). A line that repeats a layout's gaps costs a few word compares per member instead of
/// reading each key, colon and comma, and its values are read by the general walk's own code.
///
/// Why that is exact: bytes identical to the gaps of a line the general walk accepted tokenize
/// identically, so they hold the same keys, none repeated, with nothing else between the values.
/// A line whose gaps differ anywhere goes to the general walk, which decides, and when it accepts
/// the line its layout is learned, in place of the layout unused longest once `capacity` are kept.
///
/// One instance per worker; it owns fixed memory, so matching allocates nothing and holds no
/// reference-counted storage.
package final class JSONLineLayouts {
    /// Layouts kept; a new one replaces the one unused longest.
    static let capacity = 4
    /// Members a layout holds: a line with more is not learned.
    static let maxMembers = 15
    /// The longest gap a layout holds: a line with a longer one is not learned.
    static let maxGap = 32
    /// Steps per layout: one per member, then the closing gap.
    static let maxSteps = maxMembers + 1

    /// A member as the general walk read it: its key (`nil` when unknown) and where its value is.
    struct Member {
        var key: RawRecord.Key?
        var valueStart: Int32
        var valueEnd: Int32

        /// After the last member.
        static let end = Member(key: nil, valueStart: -1, valueEnd: -1)
        /// In place of the members past `maxMembers`.
        static let tooMany = Member(key: nil, valueStart: -2, valueEnd: -2)
    }

    /// `keys` for a member whose key is not a known one.
    static let unknownKey: UInt8 = 0xFF
    /// `keys` for the closing gap: the line must end after it.
    static let endOfLine: UInt8 = 0xFE

    /// Gap `step` of layout `layout` is `gaps[slot * maxGap ..< slot * maxGap + gapLengths[slot]]`,
    /// `slot = layout * maxSteps + step`.
    let gaps: UnsafeMutablePointer<UInt8>
    let gapLengths: UnsafeMutablePointer<UInt8>
    /// The key after gap `slot`: a `RawRecord.Key` raw value, `unknownKey` or `endOfLine`.
    let keys: UnsafeMutablePointer<UInt8>
    /// `shared[a * capacity + b]`: how many leading steps layouts `a` and `b` have in common.
    private let shared: UnsafeMutablePointer<UInt8>
    /// Where the general walk writes the members of a line to learn (`maxSteps` entries).
    let members: UnsafeMutablePointer<Member>
    /// The last date the lines read by layout named.
    let dates: UnsafeMutablePointer<DateMemo>
    /// Layouts learned so far, up to `capacity`.
    private(set) var count = 0
    /// The layout the last line matched: the next line is tried against it first.
    private(set) var current = 0
    /// When each layout last matched a line, in lines matched: a new layout replaces the one
    /// unused longest, so a rare shape cannot push out the common ones.
    private let lastMatched: UnsafeMutablePointer<Int>
    private var matched = 0
    /// Lines whose layout was learned: lines no layout fitted that the general walk accepted, with
    /// few enough members and short enough gaps.
    private(set) var learnedLines = 0

    package init() {
        let slots = Self.capacity * Self.maxSteps
        gaps = .allocate(capacity: slots * Self.maxGap)
        gaps.initialize(repeating: 0, count: slots * Self.maxGap)
        gapLengths = .allocate(capacity: slots)
        gapLengths.initialize(repeating: 0, count: slots)
        keys = .allocate(capacity: slots)
        keys.initialize(repeating: Self.endOfLine, count: slots)
        shared = .allocate(capacity: Self.capacity * Self.capacity)
        shared.initialize(repeating: 0, count: Self.capacity * Self.capacity)
        members = .allocate(capacity: Self.maxSteps)
        members.initialize(repeating: Member(key: nil, valueStart: 0, valueEnd: 0), count: Self.maxSteps)
        dates = .allocate(capacity: 1)
        dates.initialize(to: DateMemo())
        lastMatched = .allocate(capacity: Self.capacity)
        lastMatched.initialize(repeating: 0, count: Self.capacity)
    }

    deinit {
        gaps.deallocate()
        gapLengths.deallocate()
        keys.deallocate()
        shared.deallocate()
        members.deallocate()
        lastMatched.deallocate()
        dates.deallocate()
    }

    /// Notes that `layout` matched a line.
    @inline(__always)
    func matched(_ layout: Int) {
        current = layout
        matched &+= 1
        lastMatched[layout] = matched
    }

    @inline(__always)
    static func slot(_ layout: Int, _ step: Int) -> Int {
        layout &* maxSteps &+ step
    }

    /// How many leading steps layouts `a` and `b` have in common: a line that matched `a` up to
    /// a step can go on by `b` from there when this is at least that step.
    @inline(__always)
    func stepsShared(_ a: Int, _ b: Int) -> Int {
        Int(shared[a &* Self.capacity &+ b])
    }

    /// Learns the layout of `line`, which the general walk has just accepted, writing `members`
    /// (ended by `Member.end`, or by `Member.tooMany`).
    ///
    /// - Returns: whether the line could be learned (few enough members, no gap too long).
    @discardableResult
    func learn(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = line.baseAddress else { return false }
        var memberCount = 0
        while members[memberCount].valueStart >= 0 { memberCount += 1 }
        guard members[memberCount].valueStart == Member.end.valueStart else { return false }
        // Check every gap before writing any.
        var gapStart = 0
        for step in 0...memberCount {
            let gapEnd = step < memberCount ? Int(members[step].valueStart) : line.count
            guard gapEnd - gapStart >= 1, gapEnd - gapStart <= Self.maxGap else { return false }
            if step < memberCount { gapStart = Int(members[step].valueEnd) }
        }
        var layout = count
        if count < Self.capacity {
            count += 1
        } else {
            layout = (0..<count).min { lastMatched[$0] < lastMatched[$1] } ?? 0
        }
        gapStart = 0
        for step in 0...memberCount {
            let slot = Self.slot(layout, step)
            let gapEnd = step < memberCount ? Int(members[step].valueStart) : line.count
            let length = gapEnd - gapStart
            (gaps + slot * Self.maxGap).update(from: base + gapStart, count: length)
            (gaps + slot * Self.maxGap + length).update(repeating: 0, count: Self.maxGap - length)
            gapLengths[slot] = UInt8(length)
            if step < memberCount {
                keys[slot] = members[step].key.map { UInt8($0.rawValue) } ?? Self.unknownKey
                gapStart = Int(members[step].valueEnd)
            } else {
                keys[slot] = Self.endOfLine
            }
        }
        for other in 0..<count {
            let steps = other == layout ? Self.maxSteps : commonSteps(layout, other)
            shared[layout * Self.capacity + other] = UInt8(steps)
            shared[other * Self.capacity + layout] = UInt8(steps)
        }
        matched(layout)
        learnedLines += 1
        return true
    }

    /// Leading steps with the same gap and key in both layouts.
    private func commonSteps(_ a: Int, _ b: Int) -> Int {
        var steps = 0
        while steps < Self.maxSteps {
            let slotA = Self.slot(a, steps)
            let slotB = Self.slot(b, steps)
            let length = Int(gapLengths[slotA])
            guard keys[slotA] == keys[slotB], length == Int(gapLengths[slotB]),
                  ByteInterner.equal(gaps + slotA * Self.maxGap, gaps + slotB * Self.maxGap, length)
            else { break }
            steps += 1
            if keys[slotA] == Self.endOfLine { break }
        }
        return steps
    }
}
