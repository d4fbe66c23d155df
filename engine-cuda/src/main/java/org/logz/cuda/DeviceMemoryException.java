package org.logz.cuda;

/** The device cannot hold an allocation; says how much was asked for and how much was free. */
public class DeviceMemoryException extends IllegalStateException {
    public DeviceMemoryException(long requested, long free) {
        super("device memory exhausted: requested " + requested + " bytes, " + free + " free");
    }
}
