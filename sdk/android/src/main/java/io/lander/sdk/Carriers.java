package io.lander.sdk;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which text found on the device may be sent as a carrier (docs/sdk.md): the clipboard only when it
 * is exactly a carrier link of this deployment's host, the Play referrer and the APK stamp only when
 * they are a bare carrier, a launch link only when it is an https carrier link. Anything else is never
 * sent. The same rules as the JS SDK's carriers.ts; the conformance cases hold both to them.
 */
final class Carriers {
    private static final String CARRIER = "[A-Za-z0-9_-]{22}(?:\\.[A-Za-z0-9_-]{1,2048})?";
    private static final Pattern BARE = Pattern.compile("^" + CARRIER + "$");
    private static final Pattern LINK =
            Pattern.compile("^https?://([^/?#\\s]+)/i/" + CARRIER + "$", Pattern.CASE_INSENSITIVE);
    private static final Pattern IN_TEXT = Pattern.compile("/i/" + CARRIER + "(?:$|[?#\\s])");
    private static final Pattern HOST = Pattern.compile("^https?://([^/?#\\s]+)", Pattern.CASE_INSENSITIVE);

    private Carriers() {}

    /** The host (with its port) of a URL, lower-case; "" when it is not an http(s) URL. */
    static String hostOf(String url) {
        Matcher match = HOST.matcher(url.trim());
        return match.find() ? match.group(1).toLowerCase(Locale.ROOT) : "";
    }

    static String clipboard(String text, String host) {
        if (text == null) return null;
        String trimmed = text.trim();
        Matcher match = LINK.matcher(trimmed);
        return match.matches() && match.group(1).toLowerCase(Locale.ROOT).equals(host) ? trimmed : null;
    }

    static String bare(String text) {
        if (text == null) return null;
        String trimmed = text.trim();
        return BARE.matcher(trimmed).matches() ? trimmed : null;
    }

    static String link(String text) {
        if (text == null) return null;
        String trimmed = text.trim();
        return LINK.matcher(trimmed).matches() && trimmed.regionMatches(true, 0, "https:", 0, 6) ? trimmed : null;
    }

    static String open(String text) {
        if (text == null) return null;
        String trimmed = text.trim();
        return BARE.matcher(trimmed).matches() || IN_TEXT.matcher(trimmed).find() ? trimmed : null;
    }
}
