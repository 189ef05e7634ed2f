/// Namespace of the DeviceEmulation module.
public enum DeviceEmulationModule {}
