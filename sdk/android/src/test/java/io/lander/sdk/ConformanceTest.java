package io.lander.sdk;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.io.File;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.nio.charset.Charset;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.json.JSONArray;
import org.json.JSONException;
import org.json.JSONObject;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

/**
 * The Android SDK runs every conformance case of sdk/conformance (its README): the requests it sends,
 * in order, and what the app sees at each step. The folder comes from {@code -Dlander.conformance}.
 */
@RunWith(Parameterized.class)
public class ConformanceTest {
    private final JSONObject kase;

    public ConformanceTest(String name, JSONObject kase) {
        this.kase = kase;
    }

    @Parameters(name = "{0}")
    public static Collection<Object[]> cases() throws IOException, JSONException {
        File dir = new File(System.getProperty("lander.conformance", "sdk/conformance"));
        File[] files = dir.listFiles();
        assertTrue("no conformance cases in " + dir.getAbsolutePath(), files != null && files.length > 0);
        Arrays.sort(files);
        List<Object[]> cases = new ArrayList<Object[]>();
        for (File file : files) {
            if (!file.getName().endsWith(".json")) continue;
            JSONObject content = new JSONObject(new String(Files.readAllBytes(file.toPath()), Charset.forName("UTF-8")));
            JSONObject defaults = content.getJSONObject("defaults");
            JSONArray list = content.getJSONArray("cases");
            for (int i = 0; i < list.length(); i++) {
                JSONObject kase = list.getJSONObject(i);
                for (String key : new String[] {"options", "device"}) {
                    if (!kase.has(key)) kase.put(key, defaults.get(key));
                }
                if (!kase.has("carriers")) kase.put("carriers", new JSONObject());
                JSONArray sdks = kase.optJSONArray("sdks");
                if (sdks != null && !sdks.toString().contains("\"android\"")) continue;
                cases.add(new Object[] {file.getName() + ": " + kase.getString("name"), kase});
            }
        }
        return cases;
    }

    /** A server that answers each step's exchanges in order and records every request. */
    static final class ScriptedServer implements Transport {
        final FakeClock clock;
        final List<JSONObject> sent = new ArrayList<JSONObject>();
        final List<JSONObject> script = new ArrayList<JSONObject>();

        ScriptedServer(FakeClock clock) {
            this.clock = clock;
        }

        @Override
        public Response post(String url, String json, int timeoutMs) throws IOException {
            JSONObject request = new JSONObject();
            try {
                request.put("path", url.replaceFirst("^https?://[^/]+", ""));
                request.put("body", new JSONObject(json));
            } catch (JSONException notJson) {
                throw new AssertionError("the SDK sent a body that is not JSON: " + json);
            }
            sent.add(request);
            JSONObject response = script.isEmpty() ? null : script.remove(0).optJSONObject("response");
            if (response == null) return new Response(599, "unexpected request");
            if (response.optBoolean("timeout")) {
                clock.time += timeoutMs;
                throw new SocketTimeoutException("Read timed out");
            }
            if (response.optBoolean("networkError")) throw new IOException("Connection refused");
            String text = response.has("text") ? response.optString("text")
                    : response.has("body") ? response.opt("body").toString() : "";
            return new Response(response.optInt("status"), text);
        }
    }

    final class CasePlatform implements Platform {
        final Storage storage;
        JSONObject carriers;
        /** The "network is back" hooks of the running launch. */
        final List<Runnable> online = new ArrayList<Runnable>();

        CasePlatform(Storage storage, JSONObject carriers) {
            this.storage = storage;
            this.carriers = carriers;
        }

        @Override
        public Storage storage() {
            return storage;
        }

        private String read(String name) throws Exception {
            Object value = carriers.opt(name);
            if (value instanceof JSONObject) throw new Exception(((JSONObject) value).optString("error"));
            return value instanceof String ? (String) value : null;
        }

        @Override
        public DeviceFacts device() throws JSONException {
            JSONObject device = kase.getJSONObject("device");
            JSONObject screen = device.getJSONObject("screen");
            JSONArray langs = device.getJSONArray("langs");
            List<String> languages = new ArrayList<String>();
            for (int i = 0; i < langs.length(); i++) languages.add(langs.getString(i));
            Object model = device.opt("model");
            return new DeviceFacts(device.getString("platform"), device.getString("osVersion"),
                    model instanceof String ? (String) model : null, screen.getDouble("w"), screen.getDouble("h"),
                    screen.getDouble("scale"), device.getString("tz"), languages);
        }

        @Override
        public String clipboard() throws Exception {
            return read("clipboard");
        }

        @Override
        public PlayReferrer playReferrer(long timeoutMs) throws Exception {
            String referrer = read("playReferrer");
            JSONObject times = kase.optJSONObject("installReferrer");
            if (referrer == null && times == null) return null;
            times = times == null ? new JSONObject() : times;
            return new PlayReferrer(referrer, times.optLong("installBeginTimestampSeconds"),
                    times.optLong("installBeginTimestampServerSeconds"), times.optLong("referrerClickTimestampSeconds"),
                    times.optLong("referrerClickTimestampServerSeconds"));
        }

        @Override
        public String apkStamp() throws Exception {
            return read("apk");
        }

        @Override
        public StoreReferrer appGalleryReferrer() throws Exception {
            return store("appGallery", StoreReferrer.APPGALLERY);
        }

        @Override
        public StoreReferrer honorReferrer() throws Exception {
            return store("honor", StoreReferrer.HONOR);
        }

        /** The case's `stores` entry `name`: the row the store's provider holds, or a read that throws. */
        private StoreReferrer store(String name, String store) throws Exception {
            JSONObject stores = kase.optJSONObject("stores");
            JSONObject row = stores == null ? null : stores.optJSONObject(name);
            if (row == null) return null;
            if (row.has("error")) throw new Exception(row.optString("error"));
            return new StoreReferrer(store, row.isNull("referrer") ? null : row.optString("referrer", null),
                    row.isNull("channel") ? null : row.optString("channel", null), row.optLong("clickMs"),
                    row.optLong("installMs"));
        }

        /** The case's `metaReferrer`: the row Meta's provider holds, or a read that throws. */
        @Override
        public MetaReferrer metaReferrer() throws Exception {
            JSONObject row = kase.optJSONObject("metaReferrer");
            if (row == null) return null;
            if (row.has("error")) throw new Exception(row.optString("error"));
            return new MetaReferrer(row.isNull("installReferrer") ? null : row.optString("installReferrer", null),
                    row.optLong("actualTimestamp"), row.isNull("isCt") ? null : row.optBoolean("isCt"));
        }

        @Override
        public String harmonyLink() throws Exception {
            return read("harmonyLink");
        }

        @Override
        public void onOnline(Runnable run) {
            online.add(run);
        }
    }

    /** {@code lander.link(timeoutMs)} on its own thread, the fake time moved to each next timer while it waits. */
    static DeferredLink awaitLink(final Lander lander, final long timeoutMs, FakeClock clock) throws Exception {
        FutureTask<DeferredLink> call = new FutureTask<DeferredLink>(new java.util.concurrent.Callable<DeferredLink>() {
            @Override
            public DeferredLink call() {
                return lander.link(timeoutMs);
            }
        });
        Thread thread = new Thread(call, "link");
        thread.start();
        for (int i = 0; i < 1000; i++) {
            try {
                return call.get(10, TimeUnit.MILLISECONDS);
            } catch (TimeoutException waiting) {
                // Blocked on its latch: its timer is set, so the time may move.
                if (thread.getState() != Thread.State.WAITING) continue;
                Long next = clock.nextAt();
                if (next != null) clock.advanceTo(next);
            } catch (ExecutionException failed) {
                throw new AssertionError("link() threw", failed.getCause());
            }
        }
        throw new AssertionError("link(" + timeoutMs + ") never answered");
    }

    static final class MapStorage implements Storage {
        final Map<String, String> map = new HashMap<String, String>();

        @Override
        public String get(String key) {
            return map.get(key);
        }

        @Override
        public void set(String key, String value) {
            map.put(key, value);
        }

        @Override
        public void remove(String key) {
            map.remove(key);
        }
    }

    /** A case's consent, through the SDK's own setters. */
    private static Consent consentOf(JSONObject json) {
        Consent consent = new Consent();
        if (json.has("tracking")) consent.tracking(json.optBoolean("tracking"));
        if (json.has("gpc")) consent.gpc(json.optBoolean("gpc"));
        if (json.has("att")) consent.att(json.optString("att"));
        if (json.has("tcf")) consent.tcf(json.optString("tcf"));
        if (json.has("gpp")) consent.gpp(json.optString("gpp"));
        return consent;
    }

    /** A case's campaign fields for createLink(), or null for none. */
    private static Map<String, String> stringsOf(JSONObject json) {
        if (json == null) return null;
        Map<String, String> map = new HashMap<String, String>();
        for (java.util.Iterator<String> keys = json.keys(); keys.hasNext(); ) {
            String key = keys.next();
            map.put(key, json.optString(key));
        }
        return map;
    }

    @Test
    public void conforms() throws Exception {
        FakeClock clock = new FakeClock();
        ScriptedServer server = new ScriptedServer(clock);
        CasePlatform platform = new CasePlatform(new MapStorage(), kase.getJSONObject("carriers"));
        JSONObject o = kase.getJSONObject("options");
        LanderOptions options = new LanderOptions(o.getString("url"), o.getString("app"))
                .timeoutMs(o.getInt("timeoutMs")).test(o.optBoolean("test"));
        if (o.has("consent")) options.consent(consentOf(o.getJSONObject("consent")));
        Lander lander = new Lander(options, platform, server, clock);
        Map<String, String> ids = new HashMap<String, String>();
        Map<String, JSONArray> heard = new HashMap<String, JSONArray>();
        Map<String, Runnable> listening = new HashMap<String, Runnable>();
        long caseTime = 0;
        JSONArray steps = kase.getJSONArray("steps");
        for (int index = 0; index < steps.length(); index++) {
            JSONObject step = steps.getJSONObject(index);
            String action = step.getString("do");
            String where = "step " + (index + 1) + " (" + action + ")";
            JSONArray exchanges = step.optJSONArray("exchanges");
            exchanges = exchanges == null ? new JSONArray() : exchanges;
            server.sent.clear();
            server.script.clear();
            for (int i = 0; i < exchanges.length(); i++) server.script.add(exchanges.getJSONObject(i));
            long started = clock.now();
            Object seen = null;
            if (action.equals("restart")) {
                clock.forget();
                platform.online.clear();
                heard.clear();
                // The app stays closed that long: no timer of the killed app runs meanwhile.
                caseTime += step.optLong("afterMs", 0);
                clock.advanceTo(caseTime);
                if (step.has("carriers")) platform.carriers = step.getJSONObject("carriers");
                lander = new Lander(options, platform, server, clock);
            } else if (action.equals("wait")) {
                caseTime += step.getLong("ms");
                clock.advanceTo(caseTime);
            } else if (action.equals("track")) {
                Object value = step.opt("value");
                lander.track(step.getString("name"), value == null ? null
                        : value instanceof Number ? ((Number) value).doubleValue() : Double.NaN,
                        step.has("currency") ? step.getString("currency") : null);
            } else if (action.equals("install")) {
                seen = lander.install().toJson();
            } else if (action.equals("open")) {
                seen = lander.open(step.getString("url")).toJson();
            } else if (action.equals("pendingLink")) {
                DeferredLink link = lander.pendingLink();
                seen = link == null ? JSONObject.NULL : link.toJson();
            } else if (action.equals("consumeLink")) {
                DeferredLink link = lander.consumeLink();
                seen = link == null ? JSONObject.NULL : link.toJson();
            } else if (action.equals("flush")) {
                lander.flush();
            } else if (action.equals("identify")) {
                lander.identify(step.getString("userId"));
            } else if (action.equals("createLink")) {
                InviteLink link = lander.createLink(step.optString("channel", null), stringsOf(step.optJSONObject("data")));
                seen = link == null ? JSONObject.NULL : link.toJson();
            } else if (action.equals("consent")) {
                lander.consent(consentOf(step.getJSONObject("consent")));
            } else if (action.equals("installId")) {
                seen = lander.installId();
            } else if (action.equals("online")) {
                for (int i = 0; i < step.optInt("times", 1); i++) {
                    for (Runnable run : new ArrayList<Runnable>(platform.online)) run.run();
                }
                clock.advanceTo(clock.now());
            } else if (action.equals("listen")) {
                final JSONArray links = new JSONArray();
                heard.put(step.getString("as"), links);
                listening.put(step.getString("as"), lander.onLink(new LinkListener() {
                    @Override
                    public void onLink(DeferredLink link) {
                        synchronized (links) {
                            links.put(link.toJson());
                        }
                    }
                }));
            } else if (action.equals("unlisten")) {
                listening.get(step.getString("as")).run();
            } else if (action.equals("heard")) {
                seen = heard.get(step.getString("as"));
            } else if (action.equals("link")) {
                DeferredLink link = awaitLink(lander, step.getLong("timeoutMs"), clock);
                seen = link == null ? JSONObject.NULL : link.toJson();
            } else {
                throw new AssertionError(where + ": unknown step");
            }
            // A timeout inside a call moves the time; one inside a wait belongs to the wait's own timeline.
            if (!action.equals("wait")) caseTime = Math.max(caseTime, clock.now());
            JSONArray expected = new JSONArray();
            for (int i = 0; i < exchanges.length(); i++) expected.put(exchanges.getJSONObject(i).getJSONObject("request"));
            JSONArray actual = new JSONArray(server.sent);
            assertEquals(where + ": the requests sent", Json.canonical(Json.bindIds(expected, actual, ids)),
                    Json.canonical(actual));
            if (step.has("expect")) {
                Object expect = Json.bindIds(step.get("expect"), seen, ids);
                assertEquals(where + ": what the app saw", Json.canonical(expect), Json.canonical(seen));
            }
            if (step.has("withinMs")) {
                assertTrue(where + ": answered within " + step.getLong("withinMs") + " ms",
                        clock.now() - started <= step.getLong("withinMs"));
            }
        }
    }
}
