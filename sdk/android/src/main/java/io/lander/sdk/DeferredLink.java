package io.lander.sdk;

import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import org.json.JSONException;
import org.json.JSONObject;

/** The deferred link: the matched tap's campaign, kept until {@link Lander#consumeLink()}. */
public final class DeferredLink {
    public final String clickId;
    public final String method;
    public final Map<String, String> data;
    /** ISO 8601, or null. */
    public final String clickedAt;

    DeferredLink(String clickId, String method, Map<String, String> data, String clickedAt) {
        this.clickId = clickId;
        this.method = method;
        this.data = data;
        this.clickedAt = clickedAt;
    }

    public JSONObject toJson() {
        JSONObject json = new JSONObject();
        try {
            json.put("clickId", clickId);
            json.put("method", method);
            json.put("data", new JSONObject(data));
            json.put("clickedAt", clickedAt == null ? JSONObject.NULL : clickedAt);
        } catch (JSONException impossible) {
            throw new IllegalStateException(impossible);
        }
        return json;
    }

    static DeferredLink fromJson(JSONObject json) throws JSONException {
        Map<String, String> data = new LinkedHashMap<String, String>();
        JSONObject fields = json.getJSONObject("data");
        for (Iterator<String> keys = fields.keys(); keys.hasNext(); ) {
            String key = keys.next();
            data.put(key, fields.getString(key));
        }
        Object clickedAt = json.opt("clickedAt");
        return new DeferredLink(json.getString("clickId"), json.getString("method"),
                Collections.unmodifiableMap(data), clickedAt instanceof String ? (String) clickedAt : null);
    }

    @Override
    public String toString() {
        return toJson().toString();
    }
}
