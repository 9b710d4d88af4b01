import EffectScheduler
import Testing

@Suite("The runtime's mechanisms are probed before they are trusted")
struct RuntimeCapabilitiesTests {
  #if os(Linux) && _pointerBitWidth(_64)
    @Test("on 64-bit Linux every mechanism passes its probe")
    func everyMechanismIsVerifiedHere() {
      let capabilities = RuntimeCapabilities.current
      #expect(capabilities.off == [], "\(capabilities)")
      for mechanism in RuntimeMechanism.allCases {
        #expect(capabilities[mechanism] == .verified, "\(mechanism): \(capabilities[mechanism])")
      }
    }
  #endif

  @Test("a mechanism left off reads as a failed probe, and the table names what is lost")
  func leftOffMechanismIsNamed() {
    let capabilities = RuntimeCapabilities([.executorAdoption: .verified, .taskWaits: .verified])
      .leaving(off: [.executorAdoption])
    #expect(!capabilities.isOn(.executorAdoption))
    #expect(capabilities.isOn(.taskWaits))
    #expect(capabilities[.executorAdoption] == .failedProbe("left off by the configuration"))
    #expect(capabilities[.actorJobs] == .unavailable("not probed"))
    #expect(capabilities.off.first == .globalExecutorHooks)
    #expect(capabilities.description.contains("off: probe failed (left off by the configuration): plain tasks hop between idle actors within one step"), "\(capabilities)")
  }

  @Test("a run whose configuration leaves executor adoption off runs its plain tasks unadopted, and says so")
  func leftOffAdoptionIsRecorded() async {
    var leavingOff = SchedulerConfiguration()
    leavingOff.mechanismsLeftOff = [.executorAdoption]
    let configuration = leavingOff
    let program: @Sendable () async throws -> Void = {
      let task = Task { await Task.yield() }
      await task.value
    }
    let unadopted = await onDedicatedThread {
      var strategy = FIFOStrategy()
      return DeterministicScheduler.execute(strategy: &strategy, configuration: configuration, operation: program).record.plainTasksWentUnadopted
    }
    #expect(unadopted)
    let adopted = await onDedicatedThread {
      var strategy = FIFOStrategy()
      return DeterministicScheduler.execute(strategy: &strategy, configuration: SchedulerConfiguration(), operation: program).record.plainTasksWentUnadopted
    }
    #expect(adopted == !RuntimeCapabilities.current.isOn(.executorAdoption))
  }
}
