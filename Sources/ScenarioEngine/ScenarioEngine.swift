/// Namespace of the ScenarioEngine module.
public enum ScenarioEngineModule {}
