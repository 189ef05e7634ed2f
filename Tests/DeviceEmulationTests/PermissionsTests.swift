import Foundation
import Testing

@testable import DeviceEmulation

@Suite("Permissions (WXC-P1, WXC-P2, NAV-PR1)")
struct PermissionsTests {
    @Test(
        "WXC-P1: cellular refused → only Wi-Fi is used",
        arguments: [
            (ConnectivityState.online, PermissionDecision.granted, [NetworkBearer.wifi, .cellular]),
            (.online, .refused, [.wifi]),
            (.cellularOnly, .granted, [.cellular]),
            (.cellularOnly, .refused, []),
            (.cellularOnly, .notAsked, []),
            (.wifiOnly, .refused, [.wifi]),
            (.offline, .granted, []),
        ])
    func cellularRule(state: ConnectivityState, cellular: PermissionDecision, expected: [NetworkBearer]) throws {
        let permissions = DevicePermissions(location: .granted, cellularData: cellular)
        #expect(permissions.usableBearers(in: state) == expected)
        // The network link applies the same rule.
        let link = try NetworkLink(schedule: .always(state), cellularDataAllowed: permissions.mayUseCellularData)
        #expect(link.bearer(at: 0) == expected.first)
    }

    @Test("WXC-P1: location refused → no device position")
    func locationRule() {
        let position: (Double, Double)? = (52.0, 4.0)
        #expect(DevicePermissions(location: .granted).devicePosition(position) != nil)
        #expect(DevicePermissions(location: .refused).devicePosition(position) == nil)
        #expect(DevicePermissions(location: .notAsked).devicePosition(position) == nil)
    }

    @Test("WXC-P2: asked once per new location; refusal disables the service only there")
    func weatherServicePerLocation() {
        var store = WeatherServicePermissions()
        var asked: [String] = []
        let first = store.arrive(at: "Pretoria") {
            asked.append("Pretoria")
            return true
        }
        let second = store.arrive(at: "Rota") {
            asked.append("Rota")
            return false
        }
        let again = store.arrive(at: "Pretoria") {
            asked.append("Pretoria again")
            return false
        }
        let refusedAgain = store.arrive(at: "Rota") {
            asked.append("Rota again")
            return true
        }
        #expect(first == .init(prompted: true, enabled: true))
        #expect(second == .init(prompted: true, enabled: false))
        #expect(again == .init(prompted: false, enabled: true))
        #expect(refusedAgain == .init(prompted: false, enabled: false))
        #expect(asked == ["Pretoria", "Rota"])
        #expect(store.promptsShown == 2)
        #expect(store.isEnabled(at: "Pretoria"))
        #expect(!store.isEnabled(at: "Rota"))
        #expect(!store.isEnabled(at: "Lincoln"))
        #expect(!store.hasAnswered(for: "Lincoln"))
    }

    @Test("NAV-PR1: no data before consent; none after withdrawal and deletion")
    func consent() {
        var consent = LocationConsent()
        let record = { (t: Double) in LocationConsent.Record(userID: "u1", time: t, latitude: -25.75, longitude: 28.23)
        }
        let r1 = consent.collect(record(0))
        #expect(!r1)
        #expect(consent.records.isEmpty)
        consent.give(at: 10)
        let r2 = consent.collect(record(11))
        #expect(r2)
        let r3 = consent.collect(record(12))
        #expect(r3)
        consent.withdraw(at: 13)
        let r4 = consent.collect(record(14))
        #expect(!r4)
        #expect(consent.records.count == 2)
        let r5 = consent.deleteIdentifiableData(at: 15)
        #expect(r5 == 2)
        #expect(consent.records.isEmpty)
        let r6 = consent.collect(record(16))
        #expect(!r6)
        #expect(consent.refusedCollections == 3)
        #expect(consent.lastDeletionTime == 15)
        consent.give(at: 20)
        let r7 = consent.collect(record(21))
        #expect(r7)
        let r8 = consent.withdrawAndDelete(at: 22)
        #expect(r8 == 1)
        #expect(consent.records.isEmpty && !consent.mayCollect)
        #expect(consent.state == .withdrawn(at: 22))
    }
}
