package io.lander.sdk;

/** A small persistent key-value store; {@link FileStorage} keeps each key in a file. */
public interface Storage {
    /** The value, or null when there is none. */
    String get(String key) throws Exception;

    void set(String key, String value) throws Exception;

    void remove(String key) throws Exception;
}
