package io.lander.sdk;

import org.json.JSONObject;

/**
 * The person's consent, sent with the install (docs/privacy.md, "Consent"): tracking off, an iOS App
 * Tracking Transparency status other than {@link #AUTHORIZED}, GPC, or a TCF or GPP string without
 * the needed purposes stops the probabilistic match and sends to third parties for this install.
 * The carrier the person tapped still answers. Only the fields set are sent.
 */
public final class Consent {
    public static final String AUTHORIZED = "authorized";
    public static final String DENIED = "denied";
    public static final String RESTRICTED = "restricted";
    public static final String NOT_DETERMINED = "notDetermined";

    private final JSONObject fields = new JSONObject();

    /** Whether the person allows tracking (the app's own consent screen). */
    public Consent tracking(boolean allowed) {
        Kept.put(fields, "tracking", allowed);
        return this;
    }

    /** The ATT status, one of {@link #AUTHORIZED}, {@link #DENIED}, {@link #RESTRICTED}, {@link #NOT_DETERMINED}. */
    public Consent att(String status) {
        Kept.put(fields, "att", status);
        return this;
    }

    /** Global Privacy Control, where the app has such a setting. */
    public Consent gpc(boolean on) {
        Kept.put(fields, "gpc", on);
        return this;
    }

    /** The TC string an in-app consent platform keeps ({@code IABTCF_TCString} in the default preferences). */
    public Consent tcf(String tcString) {
        if (tcString != null) Kept.put(fields, "tcf", tcString);
        return this;
    }

    /** The GPP string an in-app consent platform keeps ({@code IABGPP_HDR_GppString}). */
    public Consent gpp(String gppString) {
        if (gppString != null) Kept.put(fields, "gpp", gppString);
        return this;
    }

    JSONObject toJson() {
        try {
            return new JSONObject(fields.toString());
        } catch (org.json.JSONException impossible) {
            return new JSONObject();
        }
    }
}
