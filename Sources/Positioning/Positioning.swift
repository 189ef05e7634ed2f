/// Namespace of the Positioning module.
public enum PositioningModule {}
