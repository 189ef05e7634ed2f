/// The tokens of one tweet as UTF-8 byte ranges in one reusable buffer, so the
/// classifier's hot path allocates nothing per token. Fill it with
/// `TweetTokenizer.tokenize(_:into:)`; `removeAll()` keeps the capacity.
public struct TweetTokens: Sendable {
    /// The tokens' bytes, concatenated.
    public internal(set) var bytes: [UInt8] = []
    /// End offset in `bytes` of each token (token `k` spans `ends[k-1] ..< ends[k]`, the first starts at 0).
    public internal(set) var ends: [Int32] = []
    /// Scratch space for the tokenizer (the text with HTML references decoded).
    var scratch: [UInt8] = []

    /// An empty buffer.
    public init() {
        bytes.reserveCapacity(512)
        ends.reserveCapacity(96)
    }

    /// A buffer holding `tokens` (each token's UTF-8 bytes).
    public init(_ tokens: [String]) {
        self.init()
        for t in tokens { append(t) }
    }

    /// Number of tokens.
    public var count: Int { ends.count }

    /// Empties the buffer, keeping its storage.
    public mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        ends.removeAll(keepingCapacity: true)
    }

    /// Byte range of token `k` in `bytes`.
    @inline(__always)
    public func range(_ k: Int) -> Range<Int> {
        (k == 0 ? 0 : Int(ends[k - 1]))..<Int(ends[k])
    }

    /// Token `k` as a `String`.
    public func string(_ k: Int) -> String {
        String(decoding: bytes[range(k)], as: UTF8.self)
    }

    /// All tokens as `String`s.
    public var strings: [String] { (0..<count).map(string) }

    /// Appends a token made of `token`'s UTF-8 bytes.
    public mutating func append(_ token: String) {
        bytes.append(contentsOf: token.utf8)
        finish()
    }

    /// Appends one byte to the token being built.
    @inline(__always)
    mutating func push(_ b: UInt8) { bytes.append(b) }

    /// Appends bytes to the token being built.
    @inline(__always)
    mutating func push(_ b: UnsafeBufferPointer<UInt8>) { bytes.append(contentsOf: b) }

    /// Appends `s`'s bytes to the token being built.
    mutating func push(_ s: StaticString) {
        s.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Ends the token being built (an empty token is dropped).
    @inline(__always)
    mutating func finish() {
        let end = Int32(bytes.count)
        if end != (ends.last ?? 0) { ends.append(end) }
    }

    /// Start offset of the token being built.
    var pendingStart: Int { Int(ends.last ?? 0) }

    /// Inserts `prefix` at byte offset `at` of the token being built.
    mutating func insertPrefix(_ prefix: [UInt8], at offset: Int) {
        bytes.insert(contentsOf: prefix, at: offset)
    }
}
