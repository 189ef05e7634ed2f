import FieldtestData

/// The binary model file format (`.ftsm`), little-endian:
///
/// | bytes | content |
/// |---|---|
/// | 8 | magic `FTSENTIM` |
/// | 4 | format version (UInt32, currently 4) |
/// | 8 | payload length in bytes (UInt64) |
/// | n | payload |
/// | 8 | FNV-1a 64 checksum of the payload |
///
/// Version 2 added character n-gram settings and stores logistic-regression
/// weights feature-major. Version 3 has the same layout but character n-grams
/// count every occurrence and are scaled by 1/√(gram count) (version 2: binary,
/// unit length), so version 2 weights would be misread and are rejected. Version 4 hashes
/// word n-grams with `FeatureHashing.token`/`pair` instead of FNV-1a (same layout; version 3
/// weights sit in other buckets and are rejected). The payload holds the model kind, featurizer settings, the score blend
/// weight, the lexicon tables (keys sorted, so equal models give equal bytes)
/// and the parameters as IEEE-754 bit patterns. Loading checks magic, version,
/// length, checksum and every count before building the model, and rejects a model
/// whose parameters are not all finite.
public enum SentimentModelCodec {
    /// The file magic.
    public static let magic: [UInt8] = Array("FTSENTIM".utf8)
    /// The format version this build writes and reads.
    public static let formatVersion: UInt32 = 4
    /// The conventional file extension.
    public static let fileExtension = "ftsm"

    /// Encodes `model`. Deterministic: equal models ⇒ equal bytes.
    public static func encode(_ model: SentimentModel) -> [UInt8] {
        var p = ByteWriter()
        let f = model.featurizer
        p.u8(model.kind == .naiveBayes ? 0 : 1)
        p.u8(UInt8(clamping: f.hashBits))
        p.u8(f.usesBigrams ? 1 : 0)
        p.u8(UInt8(clamping: f.charBits))
        p.u8(UInt8(clamping: f.charGramLengths.lowerBound))
        p.u8(UInt8(clamping: f.charGramLengths.upperBound))
        p.u8(f.normalizesGrams ? 1 : 0)
        p.f64(model.lexiconScoreWeight)
        for table in [f.lexicon.vader, f.lexicon.afinn, f.lexicon.afinnPhrases] {
            p.u32(UInt32(table.count))
            for key in table.keys.sorted() {
                p.string(key)
                p.f64(table[key] ?? 0)
            }
        }
        switch model {
        case .naiveBayes(let m):
            for v in m.logPriors { p.f64(v) }
            p.floats(m.logLikelihoods)
        case .logisticRegression(let m):
            for v in m.bias { p.f64(v) }
            p.floats(m.weights)
        }
        var out = ByteWriter()
        out.bytes += magic
        out.u32(formatVersion)
        out.u64(UInt64(p.bytes.count))
        out.bytes += p.bytes
        out.u64(checksum(p.bytes))
        return out.bytes
    }

    /// FNV-1a 64 of `bytes`.
    static func checksum(_ bytes: [UInt8]) -> UInt64 {
        var h = FeatureHashing.offset
        for b in bytes {
            h ^= UInt64(b)
            h = h &* FeatureHashing.prime
        }
        return h
    }

    /// Decodes a model file's bytes; `file` names it in errors.
    public static func decode(_ bytes: [UInt8], file: String) throws(SentimentError) -> SentimentModel {
        func bad(_ reason: String) -> SentimentError { .invalidModel(file: file, reason: reason) }
        guard bytes.count >= magic.count, Array(bytes.prefix(magic.count)) == magic else {
            throw bad("not a Fieldtest sentiment model (bad magic); train one with 'fieldtest train sentiment'")
        }
        var r = ByteReader(bytes: bytes, position: magic.count)
        guard let version = r.u32(), let length = r.u64() else { throw bad("truncated header") }
        guard version == formatVersion else {
            throw bad(
                "format version \(version) is not supported (this build reads version \(formatVersion)); retrain the model with this build"
            )
        }
        guard length <= UInt64(bytes.count), r.position + Int(length) + 8 == bytes.count else {
            throw bad(
                "length mismatch: header says \(length) payload bytes, file holds \(max(bytes.count - r.position - 8, 0)); the file is truncated or has trailing bytes"
            )
        }
        let payload = Array(bytes[r.position..<(r.position + Int(length))])
        var tail = ByteReader(bytes: bytes, position: r.position + Int(length))
        guard let stored = tail.u64(), stored == checksum(payload) else {
            throw bad("checksum mismatch: the file is corrupted; re-copy or retrain it")
        }
        var p = ByteReader(bytes: payload, position: 0)
        guard let kind = p.u8(), kind <= 1, let bits = p.u8(), (4...26).contains(bits), let bigrams = p.u8(),
            let charBits = p.u8(), charBits == 0 || (4...26).contains(charBits), let minGram = p.u8(),
            let maxGram = p.u8(),
            minGram >= 1, minGram <= maxGram, maxGram <= 16, let normalizes = p.u8(), normalizes <= 1,
            let blend = p.f64(), blend.isFinite, (0...1).contains(blend)
        else { throw bad("invalid settings block") }
        var tables: [[String: Double]] = []
        for _ in 0..<3 {
            guard let n = p.u32(), Int(n) <= payload.count else { throw bad("invalid lexicon table size") }
            var t: [String: Double] = [:]
            t.reserveCapacity(Int(n))
            for _ in 0..<n {
                guard let k = p.string(), let v = p.f64(), v.isFinite else { throw bad("invalid lexicon entry") }
                t[k] = v
            }
            tables.append(t)
        }
        let lexicon = SentimentLexicon(vader: tables[0], afinn: tables[1], afinnPhrases: tables[2])
        let featurizer = SentimentFeaturizer(
            hashBits: Int(bits), usesBigrams: bigrams == 1, charBits: Int(charBits),
            charGramLengths: Int(minGram)...Int(maxGram), normalizesGrams: normalizes == 1,
            lexicon: lexicon)
        guard let a = p.f64(), let b = p.f64(), let c = p.f64(), let params = p.floats() else {
            throw bad("truncated parameters")
        }
        guard p.position == payload.count else { throw bad("unexpected bytes after the parameters") }
        let model: SentimentModel
        if kind == 0 {
            guard params.count == 3 * (1 << Int(bits)) else {
                throw bad("Naive Bayes table has \(params.count) values, expected \(3 * (1 << Int(bits)))")
            }
            model = .naiveBayes(
                NaiveBayesClassifier(
                    featurizer: featurizer, logPriors: [a, b, c], logLikelihoods: params, lexiconScoreWeight: blend))
        } else {
            guard params.count == 3 * featurizer.dimension else {
                throw bad("weight table has \(params.count) values, expected \(3 * featurizer.dimension)")
            }
            model = .logisticRegression(
                LogisticRegressionClassifier(
                    featurizer: featurizer, weights: params, bias: [a, b, c], lexiconScoreWeight: blend))
        }
        guard model.parametersAreFinite else {
            throw bad(
                "its \(kind == 0 ? "log priors or likelihoods" : "bias or weights") include NaN or infinite values (training diverged); retrain it with a smaller --learning-rate, --l2 or --source-weight"
            )
        }
        return model
    }
}

/// Appends little-endian values.
struct ByteWriter {
    var bytes: [UInt8] = []
    mutating func u8(_ v: UInt8) { bytes.append(v) }
    mutating func u32(_ v: UInt32) { for k in 0..<4 { bytes.append(UInt8(truncatingIfNeeded: v >> (8 * UInt32(k)))) } }
    mutating func u64(_ v: UInt64) { for k in 0..<8 { bytes.append(UInt8(truncatingIfNeeded: v >> (8 * UInt64(k)))) } }
    mutating func f64(_ v: Double) { u64(v.bitPattern) }
    mutating func string(_ s: String) {
        let u = Array(s.utf8)
        u32(UInt32(u.count))
        bytes += u
    }
    mutating func floats(_ a: [Float]) {
        u32(UInt32(a.count))
        bytes.reserveCapacity(bytes.count + 4 * a.count)
        for v in a { u32(v.bitPattern) }
    }
}

/// Reads little-endian values, returning nil past the end.
struct ByteReader {
    let bytes: [UInt8]
    var position: Int
    mutating func u8() -> UInt8? {
        guard position < bytes.count else { return nil }
        defer { position += 1 }
        return bytes[position]
    }
    mutating func u32() -> UInt32? {
        guard position + 4 <= bytes.count else { return nil }
        var v: UInt32 = 0
        for k in 0..<4 { v |= UInt32(bytes[position + k]) << (8 * UInt32(k)) }
        position += 4
        return v
    }
    mutating func u64() -> UInt64? {
        guard position + 8 <= bytes.count else { return nil }
        var v: UInt64 = 0
        for k in 0..<8 { v |= UInt64(bytes[position + k]) << (8 * UInt64(k)) }
        position += 8
        return v
    }
    mutating func f64() -> Double? { u64().map { Double(bitPattern: $0) } }
    mutating func string() -> String? {
        guard let n = u32(), position + Int(n) <= bytes.count else { return nil }
        defer { position += Int(n) }
        return String(validating: bytes[position..<(position + Int(n))], as: UTF8.self)
    }
    mutating func floats() -> [Float]? {
        guard let n = u32(), position + 4 * Int(n) <= bytes.count else { return nil }
        var out = [Float](repeating: 0, count: Int(n))
        for i in 0..<Int(n) {
            let at = position + 4 * i
            let v =
                UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3])
                << 24
            out[i] = Float(bitPattern: v)
        }
        position += 4 * Int(n)
        return out
    }
}
