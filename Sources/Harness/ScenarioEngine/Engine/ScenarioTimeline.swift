/// Expands a scenario's timeline — device reboots and connectivity changes,
/// feed deliveries, and actors' actions (`at`/`every`/`until`/`count`) — into
/// simulation events that call the app's driver.
///
/// Order: every device in file order (its reboots, then its connectivity
/// changes), then every feed in file order, then every actor's actions in file
/// order. Events at the same virtual time run in that order (the simulation's
/// total order is `(time, sequence)`), unless the app asks for actions before
/// feeds (`actionsBeforeFeeds`).
public enum ScenarioTimeline {
    /// Schedules the timeline of `run.scenario` on `run.simulation`, calling `driver`.
    ///
    /// - Parameter actionsBeforeFeeds: schedule actions ahead of feeds, so an action at
    ///   the same instant as a delivery sees the state before that delivery.
    public static func schedule(_ run: RunContext, driver: any AppDriver, actionsBeforeFeeds: Bool = false) {
        let s = run.scenario
        let sim = run.simulation
        for device in s.devices {
            let name = device.name
            for offset in device.restarts {
                sim.schedule(at: s.start + offset) { [unowned run, unowned driver] sim in
                    driver.restart(device: name, at: sim.now, run)
                }
            }
            for change in device.connectivity {
                let state = change.state
                sim.schedule(at: s.start + change.at) { [unowned run, unowned driver] sim in
                    driver.connectivityChanged(device: name, to: state, at: sim.now, run)
                }
            }
        }
        if actionsBeforeFeeds {
            scheduleActions(run, driver: driver)
            scheduleFeeds(run, driver: driver)
        } else {
            scheduleFeeds(run, driver: driver)
            scheduleActions(run, driver: driver)
        }
    }

    /// Feed deliveries at `at`, `at + every`, … up to the scenario end (the time
    /// accumulates by `every`, as every app did before the engine scheduled them).
    static func scheduleFeeds(_ run: RunContext, driver: any AppDriver) {
        let s = run.scenario
        for feed in s.feeds {
            var t = s.start + feed.at
            while t <= s.end {
                run.simulation.schedule(at: t) { [unowned run, unowned driver] sim in
                    driver.deliver(feed, at: sim.now, run)
                }
                t += feed.every
            }
        }
    }

    /// Every occurrence of every actor's actions (`ActionSpec.offsets`).
    static func scheduleActions(_ run: RunContext, driver: any AppDriver) {
        let s = run.scenario
        for (i, actor) in s.actors.enumerated() {
            for action in actor.actions {
                for offset in action.offsets(duration: s.duration) {
                    run.simulation.schedule(at: s.start + offset) { [unowned run, unowned driver] sim in
                        driver.perform(action, actor: i, at: sim.now, run)
                    }
                }
            }
        }
    }
}
