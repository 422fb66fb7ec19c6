package io.polyrag.core;

/** The configuration is invalid; raised at start-up, with a message naming the setting, the value and the fix. */
public class ConfigException extends PolyragException {
    private static final long serialVersionUID = 1L;

    public ConfigException(String message) {
        super(message);
    }

    public ConfigException(String message, Throwable cause) {
        super(message, cause);
    }
}
