/// Namespace of the SkyScoring module.
public enum SkyScoringModule {}
