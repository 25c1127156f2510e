package io.lander.sdk;

import java.util.List;

/** What the app reports of the device (docs/attribution.md, {@code POST /api/a/install}). */
public final class DeviceFacts {
    /** {@code android}, {@code harmony} or {@code ios}. */
    public final String platform;
    public final String osVersion;
    /** May be null. */
    public final String model;
    /** The whole screen in dp, and its density. */
    public final double width;
    public final double height;
    public final double scale;
    /** IANA time zone. */
    public final String timeZone;
    public final List<String> languages;

    public DeviceFacts(String platform, String osVersion, String model, double width, double height, double scale,
            String timeZone, List<String> languages) {
        this.platform = platform;
        this.osVersion = osVersion;
        this.model = model;
        this.width = width;
        this.height = height;
        this.scale = scale;
        this.timeZone = timeZone;
        this.languages = languages;
    }
}
