package dev.tally.config;

/** Bad configuration: the message names the file (and line) or flag, the key, and what is allowed. */
public final class ConfigException extends RuntimeException {
    /**
     * Makes the error.
     *
     * @param message one line: where (file and line, or flag), the key, what is wrong and what is allowed
     */
    public ConfigException(String message) {
        super(message);
    }
}
