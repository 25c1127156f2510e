package io.lander.sdk;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.json.JSONArray;
import org.json.JSONException;
import org.json.JSONObject;

/** JSON for the tests: one canonical text per value (sorted keys, plain numbers), and `@id:` binding. */
final class Json {
    /** An id the SDK makes: 8–64 of A-Z a-z 0-9 _ . : - (sdk/conformance/README.md). */
    static final Pattern ID = Pattern.compile("^[A-Za-z0-9_.:-]{8,64}$");

    private Json() {}

    static String canonical(Object value) {
        if (value == null || value == JSONObject.NULL) return "null";
        if (value instanceof JSONObject) {
            JSONObject object = (JSONObject) value;
            List<String> keys = new ArrayList<String>();
            for (Iterator<String> i = object.keys(); i.hasNext(); ) keys.add(i.next());
            Collections.sort(keys);
            StringBuilder out = new StringBuilder("{");
            for (String key : keys) {
                if (out.length() > 1) out.append(',');
                out.append(JSONObject.quote(key)).append(':').append(canonical(object.opt(key)));
            }
            return out.append('}').toString();
        }
        if (value instanceof JSONArray) {
            JSONArray array = (JSONArray) value;
            StringBuilder out = new StringBuilder("[");
            for (int i = 0; i < array.length(); i++) {
                if (i > 0) out.append(',');
                out.append(canonical(array.opt(i)));
            }
            return out.append(']').toString();
        }
        if (value instanceof Number) {
            BigDecimal number = new BigDecimal(value.toString()).stripTrailingZeros();
            return number.scale() < 0 ? number.setScale(0).toPlainString() : number.toPlainString();
        }
        if (value instanceof String) return JSONObject.quote((String) value);
        return value.toString();
    }

    /**
     * {@code expected} with each "@id:name" replaced by the value at the same place in {@code actual}:
     * bound on first sight (a valid id no other name holds), the bound value afterwards.
     */
    static Object bindIds(Object expected, Object actual, Map<String, String> bound) throws JSONException {
        if (expected instanceof String && ((String) expected).startsWith("@id:")) {
            String known = bound.get(expected);
            if (known != null) return known;
            if (actual instanceof String && ID.matcher((String) actual).matches()
                    && !new HashSet<String>(bound.values()).contains(actual)) {
                bound.put((String) expected, (String) actual);
                return actual;
            }
            return expected;
        }
        if (expected instanceof JSONArray) {
            JSONArray in = (JSONArray) expected;
            JSONArray other = actual instanceof JSONArray ? (JSONArray) actual : new JSONArray();
            JSONArray out = new JSONArray();
            for (int i = 0; i < in.length(); i++) out.put(bindIds(in.get(i), other.opt(i), bound));
            return out;
        }
        if (expected instanceof JSONObject) {
            JSONObject in = (JSONObject) expected;
            JSONObject other = actual instanceof JSONObject ? (JSONObject) actual : new JSONObject();
            JSONObject out = new JSONObject();
            for (Iterator<String> keys = in.keys(); keys.hasNext(); ) {
                String key = keys.next();
                out.put(key, bindIds(in.get(key), other.opt(key), bound));
            }
            return out;
        }
        return expected;
    }
}
