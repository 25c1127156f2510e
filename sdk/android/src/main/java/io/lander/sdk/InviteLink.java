package io.lander.sdk;

import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import org.json.JSONObject;
import org.json.JSONTokener;

/**
 * An invite link {@link Lander#createLink} made for the user {@code identify()} named on this install
 * (docs/sdk.md, docs/campaign-links.md#invite-links-from-the-app), as the server answers it: the short
 * link to share, its slug, its QR code and its campaign. Made by {@code POST /api/a/links} with the
 * install id, never the admin token.
 */
public final class InviteLink {
    public final String url;
    public final String slug;
    public final String qr;
    public final Map<String, String> data;

    InviteLink(String url, String slug, String qr, Map<String, String> data) {
        this.url = url;
        this.slug = slug;
        this.qr = qr;
        this.data = Collections.unmodifiableMap(data);
    }

    /** As JSON, the shape the JS SDK answers (the conformance cases compare it). */
    public JSONObject toJson() {
        JSONObject json = new JSONObject();
        Kept.put(json, "url", url);
        Kept.put(json, "slug", slug);
        Kept.put(json, "qr", qr);
        Kept.put(json, "data", new JSONObject(data));
        return json;
    }

    /** Asks for the link: null (logged) when no user was identified, or it was refused, late or unreadable. */
    static InviteLink create(Lander lander, String channel, Map<String, String> data) {
        try {
            String kept = lander.kept.text("user");
            if (kept == null) {
                lander.log.line("createLink: no identify()");
                return null;
            }
            JSONObject body = new JSONObject();
            Kept.put(body, "app", lander.options.app);
            Kept.put(body, "installId", lander.installId());
            Kept.put(body, "inviter", new JSONTokener(kept).nextValue());
            if (channel != null) Kept.put(body, "channel", channel);
            if (data != null) Kept.put(body, "data", new JSONObject(data));
            Transport.Response response =
                    lander.transport.post(lander.base + "/api/a/links", body.toString(), lander.options.timeoutMs);
            if (response.status < 200 || response.status >= 300) {
                lander.log.line("createLink: " + response.status + " " + response.body);
                return null;
            }
            return read(new JSONObject(response.body));
        } catch (Exception failed) {
            lander.log.line("createLink: " + failed);
            return null;
        }
    }

    private static InviteLink read(JSONObject answer) {
        Map<String, String> data = new HashMap<String, String>();
        JSONObject fields = answer.optJSONObject("data");
        if (fields != null) {
            for (Iterator<String> keys = fields.keys(); keys.hasNext(); ) {
                String key = keys.next();
                data.put(key, fields.optString(key));
            }
        }
        String url = answer.optString("url", null);
        return url == null ? null : new InviteLink(url, answer.optString("slug"), answer.optString("qr"), data);
    }
}
