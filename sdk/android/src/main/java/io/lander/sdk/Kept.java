package io.lander.sdk;

import org.json.JSONArray;
import org.json.JSONException;
import org.json.JSONObject;

/**
 * What the SDK keeps on the device, as JSON under {@code lander:<app>:<name>}, the same keys and
 * shapes as the JS SDK: {@code install} (its id, the first attempt's time and body, the answer),
 * {@code link}, {@code events} and {@code user} (the user id {@code identify()} named last, a JSON string). A store that fails or holds something unreadable reads as empty.
 */
final class Kept {
    private final Storage storage;
    private final String prefix;
    private final Lander.Log log;

    Kept(Storage storage, String app, Lander.Log log) {
        this.storage = storage;
        this.prefix = "lander:" + app + ":";
        this.log = log;
    }

    JSONObject object(String name) {
        try {
            String text = storage.get(prefix + name);
            return text == null ? null : new JSONObject(text);
        } catch (Exception unreadable) {
            log.line("store: cannot read " + name + ": " + unreadable);
            return null;
        }
    }

    /** The JSON text kept under {@code name}, or null. */
    String text(String name) {
        try {
            return storage.get(prefix + name);
        } catch (Exception unreadable) {
            log.line("store: cannot read " + name + ": " + unreadable);
            return null;
        }
    }

    JSONArray array(String name) {
        try {
            String text = storage.get(prefix + name);
            return text == null ? new JSONArray() : new JSONArray(text);
        } catch (Exception unreadable) {
            log.line("store: cannot read " + name + ": " + unreadable);
            return new JSONArray();
        }
    }

    void write(String name, Object value) {
        try {
            if (value == null) storage.remove(prefix + name);
            else storage.set(prefix + name, value.toString());
        } catch (Exception full) {
            log.line("store: cannot write " + name + ": " + full);
        }
    }

    static JSONObject put(JSONObject json, String key, Object value) {
        try {
            return json.put(key, value);
        } catch (JSONException impossible) {
            throw new IllegalStateException(impossible);
        }
    }
}
