package io.lander.sdk;

import org.json.JSONObject;

/**
 * The Play install referrer as Play's Install Referrer API reports it. Its times go with the install
 * for the server's fraud rules (docs/fraud.md): click injection, too fast.
 */
public final class PlayReferrer {
    /** The referrer string: the page's carrier for a Lander link; null when Play had none. */
    public final String referrer;
    /** When the install began (seconds), on the device and on Play's server; 0 when unknown. */
    public final long installBeginSeconds;
    public final long installBeginServerSeconds;
    /** When the link was clicked (seconds), on the device and on Play's server; 0 when unknown. */
    public final long clickSeconds;
    public final long clickServerSeconds;

    public PlayReferrer(String referrer, long installBeginSeconds, long installBeginServerSeconds, long clickSeconds,
            long clickServerSeconds) {
        this.referrer = referrer;
        this.installBeginSeconds = installBeginSeconds;
        this.installBeginServerSeconds = installBeginServerSeconds;
        this.clickSeconds = clickSeconds;
        this.clickServerSeconds = clickServerSeconds;
    }

    /** Without the click's server time (0: unknown). */
    public PlayReferrer(String referrer, long installBeginSeconds, long installBeginServerSeconds, long clickSeconds) {
        this(referrer, installBeginSeconds, installBeginServerSeconds, clickSeconds, 0);
    }

    /** The known times as `/api/a/install`'s `installReferrer`; null when none is known. */
    JSONObject times() {
        JSONObject times = new JSONObject();
        put(times, "referrerClickTimestampSeconds", clickSeconds);
        put(times, "installBeginTimestampSeconds", installBeginSeconds);
        put(times, "referrerClickTimestampServerSeconds", clickServerSeconds);
        put(times, "installBeginTimestampServerSeconds", installBeginServerSeconds);
        return times.length() == 0 ? null : times;
    }

    /** Play's 0 is "unknown": only a time after 1970 and before 2100 is sent. */
    private static void put(JSONObject times, String name, long seconds) {
        if (seconds > 0 && seconds <= 4102444800L) Kept.put(times, name, seconds);
    }
}
