import AccountStore
import DeviceEmulation
import FieldtestGSL
import Foundation

/// The journal's sync connection over an emulated phone's network: a push is a
/// request on the device's link at the push time (connectivity schedule, loss,
/// retries). No bearer → `.offline`; every attempt lost → the request or (with
/// probability ½, drawn from the transport's own stream) only the response was
/// lost, in which case the server did store the batch. A crash armed by the
/// scenario's `crash` action kills the app right after the server stored the
/// next batch, before the acknowledgement is handled.
struct DeviceJournalTransport: JournalTransport {
    let server: EmulatedJournalServer
    let device: Device
    var rng: RandomStream
    /// Arms the emulated crash for the next delivered push.
    var crashArmed = false
    /// Network seconds of each delivered push.
    var pushLatencies: [Double] = []
    /// Outcome counts (offline, requestLost, responseLost, crashedAfterSend, delivered).
    var counts: [String: Int] = [:]

    /// Bytes of an entry on the wire (JSON), for the emulated upload.
    static func wireBytes(_ batch: [JournalEntry]) -> Int {
        batch.reduce(200) {
            $0 + 300 + $1.title.utf8.count + $1.body.utf8.count + $1.category.utf8.count + ($1.prompt?.utf8.count ?? 0)
        }
    }

    mutating func push(_ batch: [JournalEntry], now: Date) throws(SyncTransportError) -> [SyncAck] {
        let outcome = device.request(
            bytes: 80 * batch.count + 200, uploadBytes: Self.wireBytes(batch),
            at: now.timeIntervalSince1970)
        guard outcome.attempts > 0 else {
            counts["offline", default: 0] += 1
            throw .offline
        }
        let serverSawIt = Double.random(in: 0..<1, using: &rng) < 0.5
        guard outcome.delivered else {
            if serverSawIt, (try? server.receive(batch, now: now)) != nil {
                counts["responseLost", default: 0] += 1
                throw .responseLost
            }
            counts["requestLost", default: 0] += 1
            throw .requestLost
        }
        let arrival = now.addingTimeInterval(outcome.latencySeconds)
        let acks: [SyncAck]
        do { acks = try server.receive(batch, now: arrival) } catch {
            counts["responseLost", default: 0] += 1
            throw .responseLost
        }
        if crashArmed {
            crashArmed = false
            counts["crashedAfterSend", default: 0] += 1
            throw .crashedAfterSend
        }
        counts["delivered", default: 0] += 1
        pushLatencies.append(outcome.latencySeconds)
        return acks
    }
}
