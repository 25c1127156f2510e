package io.lander.sdk;

import org.json.JSONObject;

/**
 * Meta's install referrer as the Facebook, Instagram or Messenger app's content provider hands it over
 * (docs/attribution.md#metas-install-referrer): the sealed campaign data, when the ad was clicked or
 * viewed, and whether it was a click-through. Sent as it is; only the worker, with the app's key from
 * Meta, opens it.
 */
public final class MetaReferrer {
    /** The provider's {@code install_referrer}: JSON whose {@code utm_content.source} holds the sealed data. */
    public final String installReferrer;
    /** The provider's {@code actual_timestamp}, seconds since 1970; 0 when unknown. */
    public final long actualTimestampSeconds;
    /** The provider's {@code is_ct}: 1 a click-through, 0 a view-through; null when unknown. */
    public final Boolean clickThrough;

    public MetaReferrer(String installReferrer, long actualTimestampSeconds, Boolean clickThrough) {
        this.installReferrer = installReferrer;
        this.actualTimestampSeconds = actualTimestampSeconds;
        this.clickThrough = clickThrough;
    }

    /** `/api/a/install`'s `metaReferrer`; null when there is no referrer text to send (or too long). */
    JSONObject toJson() {
        if (installReferrer == null || installReferrer.trim().isEmpty() || installReferrer.length() > 4096) return null;
        JSONObject json = new JSONObject();
        Kept.put(json, "installReferrer", installReferrer);
        if (actualTimestampSeconds > 0 && actualTimestampSeconds <= 4102444800L) {
            Kept.put(json, "actualTimestamp", actualTimestampSeconds);
        }
        if (clickThrough != null) Kept.put(json, "isCt", clickThrough.booleanValue());
        return json;
    }
}
