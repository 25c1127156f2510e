package io.lander.sdk;

import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import org.json.JSONException;
import org.json.JSONObject;

/**
 * Lander's app SDK for Android (docs/sdk.md): the install's attribution, the deferred link, opens by a
 * link and app events. Calls block (at most the budget, {@link LanderOptions#timeoutMs}): make them
 * off the main thread. None throws into the app: a failure is logged (with {@code debug}) and becomes
 * "offline", null or nothing.
 */
public final class Lander {
    final LanderOptions options;
    final Platform platform;
    final Transport transport;
    final Clock clock;
    final Kept kept;
    final Log log;
    final String base;
    private final EventQueue queue;
    private final Late late;
    private JSONObject installState;
    /** The person's consent as the app last gave it (docs/privacy.md, "Consent"). */
    volatile Consent consent;

    public Lander(LanderOptions options, Platform platform) {
        this(options, platform, new HttpTransport(), Clock.SYSTEM);
    }

    /** With another transport and clock: tests use it. */
    public Lander(LanderOptions options, Platform platform, Transport transport, Clock clock) {
        this.options = options;
        this.consent = options.consent;
        this.platform = platform;
        this.transport = transport;
        this.clock = clock;
        this.base = options.url.replaceAll("/+$", "");
        this.log = new Log() {
            @Override
            public void line(String text) {
                if (Lander.this.options.debug) Lander.this.options.logger.log(text);
            }
        };
        this.kept = new Kept(platform.storage(), options.app, log);
        this.queue = new EventQueue(this);
        this.late = new Late(this);
        try {
            platform.onOnline(new Runnable() {
                @Override
                public void run() {
                    late.online();
                }
            });
        } catch (Exception failed) {
            log.line("online hook failed: " + failed);
        }
    }

    /**
     * The person's consent (e.g. from the app's consent screen, or the TC string its consent platform
     * keeps), sent with the install's first attempt and with every open and event after it: consent
     * withdrawn later stops what the install allowed (docs/privacy.md, "Consent").
     */
    public void consent(Consent value) {
        consent = value;
    }

    /** Adds the person's consent to {@code body}, when the app gave one. */
    void putConsent(org.json.JSONObject body) {
        Consent given = consent;
        if (given != null && given.toJson().length() > 0) Kept.put(body, "consent", given.toJson());
    }

    /**
     * The install's attribution: asked once per installation, then the stored answer. An "offline"
     * answer is asked again in this session when the network is back (docs/sdk.md).
     */
    public Answer install() {
        return late.install();
    }

    /**
     * Calls {@code listener} with each deferred link once: the pending one at once, a late one when it
     * arrives. Run the returned Runnable to stop listening.
     */
    public Runnable onLink(final LinkListener listener) {
        return late.listen(new Late.Ear() {
            @Override
            public void hear(DeferredLink link) {
                if (link != null) listener.onLink(link);
            }
        });
    }

    /**
     * The deferred link, waiting (blocking) at most {@code timeoutMs} for one; null when none comes in
     * time, or once this session's answer is final without one.
     */
    public DeferredLink link(long timeoutMs) {
        final CountDownLatch done = new CountDownLatch(1);
        final DeferredLink[] got = new DeferredLink[1];
        Runnable off = late.listen(new Late.Ear() {
            @Override
            public void hear(DeferredLink link) {
                synchronized (got) {
                    if (done.getCount() == 0) return;
                    got[0] = link;
                    done.countDown();
                }
            }
        });
        Object timer = clock.schedule(new Runnable() {
            @Override
            public void run() {
                synchronized (got) {
                    done.countDown();
                }
            }
        }, timeoutMs);
        try {
            done.await();
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        } finally {
            clock.cancel(timer);
            off.run();
        }
        synchronized (got) {
            return got[0];
        }
    }

    /** The deferred link of a matched install, across restarts, until {@link #consumeLink()}. */
    public synchronized DeferredLink pendingLink() {
        JSONObject json = kept.object("link");
        try {
            return json == null ? null : DeferredLink.fromJson(json);
        } catch (JSONException unreadable) {
            return null;
        }
    }

    /** Ends the deferred link and returns it (null when there is none). */
    public synchronized DeferredLink consumeLink() {
        DeferredLink link = pendingLink();
        if (link != null) kept.write("link", null);
        return link;
    }

    /** The app was opened by {@code url} (an App Link): counted, and answered with its campaign. */
    public Answer open(String url) {
        try {
            String carrier = Carriers.open(url);
            if (carrier == null) {
                log.line("open: no carrier in the link, nothing sent");
                return Answer.NONE;
            }
            JSONObject body = new JSONObject();
            Kept.put(body, "app", options.app);
            Kept.put(body, "installId", installId());
            Kept.put(body, "carrier", carrier);
            if (options.test) Kept.put(body, "test", true);
            putConsent(body);
            log.line("open: sending " + body);
            Transport.Response response = transport.post(base + "/api/a/open", body.toString(), options.timeoutMs);
            log.line("open: " + response.status + " " + response.body);
            Answer answer = answerOf(response);
            return answer == null ? Answer.OFFLINE : answer;
        } catch (Exception failed) {
            log.line("open: " + failed);
            return Answer.OFFLINE;
        }
    }

    /**
     * The user signed in on this install, e.g. {@code identify(user.getId())} after a login: the server
     * keeps only a keyed hash, for its self-referral rule (docs/fraud.md). A failure is logged, never thrown.
     */
    public void identify(String userId) {
        if (userId == null || userId.isEmpty() || userId.length() > 256) {
            log.line("identify: a user id is 1-256 characters; nothing sent");
            return;
        }
        try {
            // The inviter of createLink(): kept as the JS SDK keeps it, a JSON string.
            kept.write("user", JSONObject.quote(userId));
            JSONObject body = new JSONObject();
            Kept.put(body, "app", options.app);
            Kept.put(body, "installId", installId());
            Kept.put(body, "userId", userId);
            log.line("identify: sending the user id");
            Transport.Response response = transport.post(base + "/api/a/identify", body.toString(), options.timeoutMs);
            log.line("identify: " + response.status);
        } catch (Exception failed) {
            log.line("identify: " + failed);
        }
    }

    /**
     * An invite link for the user {@code identify()} named, e.g. {@code createLink("share", null)}: a
     * channel and campaign fields the operator allows (either may be null). Null when it was not made
     * (no user identified, refused, offline); the reason is logged.
     */
    public InviteLink createLink(String channel, java.util.Map<String, String> data) {
        return InviteLink.create(this, channel, data);
    }

    /** Queues an app event (docs/operators.md), e.g. {@code track("register")}. */
    public void track(String name) {
        track(name, null);
    }

    /** Queues an app event with a number counted with it, e.g. {@code track("level.up", 3.0)}. */
    public void track(String name, Double value) {
        track(name, value, null);
    }

    /**
     * Queues revenue (docs/operators.md#revenue): {@code value} in the major unit of ISO 4217 code
     * {@code currency}, e.g. {@code track("purchase", 9.99, "USD")}; a refund is a negative value.
     */
    public void track(String name, Double value, String currency) {
        try {
            if (!queue.track(name, value, currency)) {
                log.line("track: \"" + name + "\" not queued (a-z 0-9 _ . -, at most 40; a finite value; a currency as USD, with a value)");
            }
        } catch (RuntimeException failed) {
            log.line("track failed: " + failed);
        }
    }

    /** Sends queued events now (e.g. when the app goes to the background). */
    public void flush() {
        try {
            queue.flush();
        } catch (RuntimeException failed) {
            log.line("flush failed: " + failed);
        }
    }

    /** The answer of a response: the server's, "rejected" for a 4xx, null (offline) otherwise. */
    static Answer answerOf(Transport.Response response) {
        if (response.status == 429 || response.status >= 500) return null;
        if (response.status < 200 || response.status >= 300) return Answer.REJECTED;
        return Answer.read(response.body);
    }

    /** The install's stored state, made (with a new install id) on first need. */
    synchronized JSONObject installState() {
        if (installState == null) {
            JSONObject stored = kept.object("install");
            if (stored == null || stored.optString("installId", "").isEmpty()) {
                stored = new JSONObject();
                Kept.put(stored, "installId", UUID.randomUUID().toString());
                kept.write("install", stored);
            }
            installState = stored;
        }
        return installState;
    }

    /** The install id (a random UUID kept on the device): the app's backend joins webhooks by it (docs/webhooks.md). */
    public synchronized String installId() {
        return installState().optString("installId");
    }

    /** Where debug lines go. */
    interface Log {
        void line(String text);
    }
}
