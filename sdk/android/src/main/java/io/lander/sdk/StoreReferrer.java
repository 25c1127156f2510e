package io.lander.sdk;

import java.util.regex.Pattern;
import org.json.JSONObject;

/**
 * What a maker's store reports about the install (docs/attribution.md#the-stores): Huawei
 * AppGallery's install referrer row (its channel, the referrer of the link tapped, the click and
 * install times) or Honor's store's channel. A text that is a bare carrier is a carrier, as the Play
 * referrer is; a text that is the store's own channel id is sent as the install's store channel.
 */
public final class StoreReferrer {
    public static final String APPGALLERY = "appgallery";
    public static final String HONOR = "honor";
    /**
     * Lander's rule: a referrer whose click was more than 90 days before the install is not this
     * install's (Play and Honor keep one 90 days; Lander's click index keeps a click as long). Nothing
     * of it is sent.
     */
    public static final long MAX_AGE_MS = 90L * 24 * 60 * 60 * 1000;
    private static final Pattern CHANNEL = Pattern.compile("^[A-Za-z0-9_.:-]{1,64}$");

    /** {@link #APPGALLERY} or {@link #HONOR}. */
    public final String store;
    /** The referrer the store kept from the link tapped; null when none. */
    public final String referrer;
    /** The store's channel id for the install; null when none. */
    public final String channel;
    /** When the link was tapped and when the install finished (milliseconds); 0 when unknown. */
    public final long clickMs;
    public final long installMs;

    public StoreReferrer(String store, String referrer, String channel, long clickMs, long installMs) {
        this.store = store;
        this.referrer = referrer;
        this.channel = channel;
        this.clickMs = clickMs;
        this.installMs = installMs;
    }

    /** Clicked more than {@link #MAX_AGE_MS} before the install. */
    boolean tooOld() {
        return clickMs > 0 && installMs > 0 && installMs - clickMs > MAX_AGE_MS;
    }

    /** The bare carrier it holds (its referrer, else its channel field), or null. */
    String carrier() {
        if (tooOld()) return null;
        String carrier = Carriers.bare(referrer);
        return carrier != null ? carrier : Carriers.bare(channel);
    }

    /** The store's own channel id: a channel that is no carrier, 1–64 of A-Z a-z 0-9 _ . : -; else null. */
    String channelId() {
        if (tooOld() || channel == null) return null;
        String trimmed = channel.trim();
        return CHANNEL.matcher(trimmed).matches() && Carriers.bare(trimmed) == null ? trimmed : null;
    }

    /** The click and install times as `/api/a/install`'s `installReferrer` (seconds); null when none is known. */
    JSONObject times() {
        if (tooOld()) return null;
        return new PlayReferrer(null, installMs / 1000, 0, clickMs / 1000).times();
    }
}
