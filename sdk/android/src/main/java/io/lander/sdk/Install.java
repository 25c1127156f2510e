package io.lander.sdk;

import java.io.IOException;
import org.json.JSONArray;
import org.json.JSONObject;

/**
 * {@link Lander#install()} (docs/sdk.md): at most one install per installation. The first attempt
 * reads the carriers and the device, keeps the body, and asks {@code POST /api/a/install} within the
 * budget. A server answer (or a 4xx) is final; "offline" (no answer in time, a network failure, 429,
 * 5xx, a body that is not an answer) is retried at the next launch with the same body, for 24 hours
 * after the first attempt. A test device's 403 (an installation not registered yet,
 * docs/attribution.md) is "offline" too: once the operator registers the install id it logged, the
 * next launch is answered as a test.
 */
final class Install {
    static final long RETRY_WINDOW_MS = 24L * 60 * 60 * 1000;

    private final Lander lander;

    Install(Lander lander) {
        this.lander = lander;
    }

    Answer run() {
        Clock clock = lander.clock;
        long started = clock.now();
        JSONObject state = lander.installState();
        long startedAt = state.optLong("startedAt", -1);
        boolean late = startedAt >= 0 && startedAt + RETRY_WINDOW_MS <= started;
        JSONObject stored = state.optJSONObject("answer");
        if (state.optBoolean("final") || late) {
            Answer answer = stored == null ? null : Answer.readStored(stored.toString());
            answer = answer == null ? Answer.OFFLINE : answer;
            lander.log.line("install: stored answer " + answer + ", nothing sent");
            return answer;
        }
        JSONObject body = state.optJSONObject("body");
        if (body == null) {
            body = firstBody(state.optString("installId"), started);
            Kept.put(state, "body", body);
            Kept.put(state, "startedAt", started);
            lander.kept.write("install", state);
        }
        long budget = lander.options.timeoutMs - (clock.now() - started);
        // Reading the platform took the whole budget: the body is kept, and the next launch sends it.
        Answer answer = budget > 0 ? send(body, (int) budget) : null;
        if (answer == null) {
            Kept.put(state, "answer", Answer.OFFLINE.toJson());
            lander.kept.write("install", state);
            return Answer.OFFLINE;
        }
        DeferredLink link = answer.link();
        if (link != null) lander.kept.write("link", link.toJson());
        Kept.put(state, "answer", answer.toJson());
        Kept.put(state, "final", true);
        lander.kept.write("install", state);
        return answer;
    }

    /** The server's answer, or null for "offline". */
    private Answer send(JSONObject body, int budget) {
        lander.log.line("install: sending " + body);
        try {
            Transport.Response response = lander.transport.post(lander.base + "/api/a/install", body.toString(), budget);
            lander.log.line("install: " + response.status + " " + response.body);
            if (lander.options.test && response.status == 403) {
                lander.log.line("install: not a registered test device yet: register install id "
                        + body.optString("installId"));
                return null;
            }
            return Lander.answerOf(response);
        } catch (IOException offline) {
            lander.log.line("install: " + offline);
            return null;
        }
    }

    /** The store's referrer of this install, or null (logged with {@code debug}). */
    private StoreReferrer storeReferrer(String store) {
        try {
            StoreReferrer found = StoreReferrer.APPGALLERY.equals(store) ? lander.platform.appGalleryReferrer()
                    : lander.platform.honorReferrer();
            if (found != null) {
                lander.log.line("install: " + store + " referrer \"" + found.referrer + "\", channel \""
                        + found.channel + "\", clicked at " + found.clickMs + " ms, installed at " + found.installMs
                        + " ms" + (found.tooOld() ? ": too old, not sent" : ""));
            }
            return found;
        } catch (Exception failed) {
            lander.log.line("install: reading the " + store + " referrer failed: " + failed);
            return null;
        }
    }

    /** The first attempt's body: the device, and each carrier the SDK may send (Carriers). */
    private JSONObject firstBody(String installId, long started) {
        Platform platform = lander.platform;
        LanderOptions options = lander.options;
        JSONObject carriers = new JSONObject();
        String clipboard = null;
        String referrer = null;
        JSONObject referrerTimes = null;
        String stamp = null;
        String harmony = null;
        try {
            clipboard = Carriers.clipboard(platform.clipboard(), Carriers.hostOf(options.url));
        } catch (Exception failed) {
            lander.log.line("install: reading the clipboard failed: " + failed);
        }
        try {
            long left = Math.max(1, options.timeoutMs - (lander.clock.now() - started));
            PlayReferrer details = platform.playReferrer(left);
            if (details != null) {
                lander.log.line("install: Play referrer \"" + details.referrer + "\", install began at "
                        + details.installBeginSeconds + " s (Play: " + details.installBeginServerSeconds + " s)");
                referrer = Carriers.bare(details.referrer);
                referrerTimes = details.times();
            }
        } catch (Exception failed) {
            lander.log.line("install: reading the Play referrer failed: " + failed);
        }
        try {
            stamp = Carriers.bare(platform.apkStamp());
        } catch (Exception failed) {
            lander.log.line("install: reading the APK stamp failed: " + failed);
        }
        try {
            harmony = Carriers.link(platform.harmonyLink());
        } catch (Exception failed) {
            lander.log.line("install: reading the launch link failed: " + failed);
        }
        StoreReferrer gallery = storeReferrer(StoreReferrer.APPGALLERY);
        StoreReferrer honor = storeReferrer(StoreReferrer.HONOR);
        String galleryCarrier = gallery == null ? null : gallery.carrier();
        // The store's channel: AppGallery's first; Honor's store hands over a channel only.
        JSONObject storeChannel = null;
        for (StoreReferrer store : new StoreReferrer[] {gallery, honor}) {
            String channel = store == null ? null : store.channelId();
            if (storeChannel != null || channel == null) continue;
            storeChannel = new JSONObject();
            Kept.put(storeChannel, "store", store.store);
            Kept.put(storeChannel, "channel", channel);
        }
        // AppGallery's times serve the fraud rules when Play had none (docs/fraud.md).
        if (referrerTimes == null && gallery != null) referrerTimes = gallery.times();
        if (clipboard != null) Kept.put(carriers, "clipboard", clipboard);
        if (referrer != null) Kept.put(carriers, "playReferrer", referrer);
        if (stamp != null) Kept.put(carriers, "apk", stamp);
        if (harmony != null) Kept.put(carriers, "harmonyLink", harmony);
        if (galleryCarrier != null) Kept.put(carriers, "appGallery", galleryCarrier);
        lander.log.line("install: carriers found: " + (carriers.length() == 0 ? "none" : carriers.names()));

        JSONObject body = new JSONObject();
        Kept.put(body, "app", options.app);
        try {
            DeviceFacts device = platform.device();
            Kept.put(body, "platform", device.platform);
            Kept.put(body, "osVersion", device.osVersion);
            if (device.model != null && !device.model.isEmpty()) Kept.put(body, "model", device.model);
            JSONObject screen = new JSONObject();
            Kept.put(screen, "w", device.width);
            Kept.put(screen, "h", device.height);
            Kept.put(screen, "scale", device.scale);
            Kept.put(body, "screen", screen);
            Kept.put(body, "tz", device.timeZone);
            Kept.put(body, "langs", new JSONArray(device.languages));
        } catch (Exception failed) {
            lander.log.line("install: reading the device failed: " + failed);
        }
        Kept.put(body, "installId", installId);
        if (carriers.length() > 0) Kept.put(body, "carriers", carriers);
        if (referrerTimes != null) Kept.put(body, "installReferrer", referrerTimes);
        if (storeChannel != null) Kept.put(body, "storeChannel", storeChannel);
        try {
            MetaReferrer meta = platform.metaReferrer();
            JSONObject metaJson = meta == null ? null : meta.toJson();
            lander.log.line("install: Meta referrer " + (metaJson == null ? "none" : metaJson.toString()));
            if (metaJson != null) Kept.put(body, "metaReferrer", metaJson);
        } catch (Exception failed) {
            lander.log.line("install: reading Meta's referrer failed: " + failed);
        }
        if (options.test) Kept.put(body, "test", true);
        lander.putConsent(body);
        return body;
    }
}
