package io.lander.sdk;

import java.util.Arrays;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.json.JSONException;
import org.json.JSONObject;

/**
 * What {@link Lander#install()} and {@link Lander#open(String)} answer (docs/attribution.md). The
 * reasons {@code offline} (no answer in time, a network failure, 429, 5xx or a body that is not an
 * answer) and {@code rejected} (a 4xx) come from the SDK; the rest from the server.
 */
public final class Answer {
    public static final Answer OFFLINE = unmatched("offline");
    public static final Answer REJECTED = unmatched("rejected");
    public static final Answer NONE = unmatched("none");

    public final boolean matched;
    /** When matched: clipboard, referrer, apk, harmony, appgallery, meta or probabilistic. */
    public final String method;
    public final int confidence;
    /** The campaign's signed fields. */
    public final Map<String, String> data;
    public final String clickId;
    /** ISO 8601, or null. */
    public final String clickedAt;
    /** When not matched: none, ambiguous, expired, unavailable, claimed, offline or rejected. */
    public final String reason;
    /**
     * A test device's answer only (null otherwise): why the server answered so, as it gave it —
     * {@code carriers}, {@code network} and English sentences in {@code summary} (docs/attribution.md).
     */
    public final JSONObject explain;

    private Answer(boolean matched, String method, int confidence, Map<String, String> data, String clickId,
            String clickedAt, String reason, JSONObject explain) {
        this.matched = matched;
        this.method = method;
        this.confidence = confidence;
        this.data = data;
        this.clickId = clickId;
        this.clickedAt = clickedAt;
        this.reason = reason;
        this.explain = explain;
    }

    static Answer unmatched(String reason) {
        return unmatched(reason, null);
    }

    private static Answer unmatched(String reason, JSONObject explain) {
        return new Answer(false, null, 0, Collections.<String, String>emptyMap(), null, null, reason, explain);
    }

    private static final List<String> METHODS = Arrays.asList("clipboard", "referrer", "apk", "harmony", "appgallery",
            "meta", "probabilistic");
    private static final List<String> SERVER_REASONS = Arrays.asList("none", "ambiguous", "expired", "unavailable", "claimed");
    private static final List<String> SDK_REASONS = Arrays.asList("offline", "rejected");

    /** The answer in a server's body, or null when it is not the contract's (a captive portal, another shape). */
    static Answer read(String text) {
        return read(text, false);
    }

    /** The answer kept on the device: the SDK's reasons too. */
    static Answer readStored(String text) {
        return read(text, true);
    }

    private static Answer read(String text, boolean stored) {
        try {
            JSONObject body = new JSONObject(text);
            JSONObject explain = body.optJSONObject("explain");
            Object matched = body.opt("matched");
            if (Boolean.FALSE.equals(matched)) {
                String reason = body.optString("reason", "");
                boolean known = SERVER_REASONS.contains(reason) || (stored && SDK_REASONS.contains(reason));
                return known ? unmatched(reason, explain) : null;
            }
            if (!Boolean.TRUE.equals(matched)) return null;
            Object method = body.opt("method");
            Object confidence = body.opt("confidence");
            Object clickId = body.opt("clickId");
            Object clickedAt = body.opt("clickedAt");
            JSONObject data = body.optJSONObject("data");
            if (!METHODS.contains(method) || !(confidence instanceof Number) || !(clickId instanceof String) || data == null) {
                return null;
            }
            if (clickedAt != JSONObject.NULL && !(clickedAt instanceof String)) return null;
            Map<String, String> fields = new LinkedHashMap<String, String>();
            for (Iterator<String> keys = data.keys(); keys.hasNext(); ) {
                String key = keys.next();
                Object value = data.get(key);
                if (!(value instanceof String)) return null;
                fields.put(key, (String) value);
            }
            return new Answer(true, (String) method, ((Number) confidence).intValue(),
                    Collections.unmodifiableMap(fields), (String) clickId,
                    clickedAt instanceof String ? (String) clickedAt : null, null, explain);
        } catch (JSONException notJson) {
            return null;
        }
    }

    /** The deferred link of a matched answer, or null. */
    DeferredLink link() {
        return matched ? new DeferredLink(clickId, method, data, clickedAt) : null;
    }

    /** The answer as the API's JSON. */
    public JSONObject toJson() {
        JSONObject json = new JSONObject();
        try {
            json.put("matched", matched);
            if (matched) {
                json.put("method", method);
                json.put("confidence", confidence);
                json.put("data", new JSONObject(data));
                json.put("clickId", clickId);
                json.put("clickedAt", clickedAt == null ? JSONObject.NULL : clickedAt);
            } else {
                json.put("reason", reason);
            }
            if (explain != null) json.put("explain", explain);
        } catch (JSONException impossible) {
            throw new IllegalStateException(impossible);
        }
        return json;
    }

    @Override
    public String toString() {
        return toJson().toString();
    }
}
