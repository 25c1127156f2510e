package io.lander.sdk;

/** The SDK's options (docs/sdk.md): where Lander is, which app, the budget, debug logs, a test device. */
public final class LanderOptions {
    /** The deployment, e.g. {@code https://get.pebble-notes.example}: its API, and the only clipboard host. */
    public final String url;
    /** The package name, as configured in Lander ({@code appData[].package}). */
    public final String app;
    /** The budget of {@link Lander#install()} and {@link Lander#open(String)} (default 3000 ms). */
    public int timeoutMs = 3000;
    /** Log every step: carriers found, what was sent, what came back. */
    public boolean debug;
    /** A test device: answered as a real one, never counted (docs/sdk.md). */
    public boolean test;
    /** Where debug lines go (default: standard output, which Android writes to logcat). */
    public Logger logger = new Logger() {
        @Override
        public void log(String line) {
            System.out.println("[lander] " + line);
        }
    };

    public LanderOptions(String url, String app) {
        this.url = url;
        this.app = app;
    }

    public LanderOptions timeoutMs(int value) {
        timeoutMs = value;
        return this;
    }

    public LanderOptions debug(boolean value) {
        debug = value;
        return this;
    }

    public LanderOptions test(boolean value) {
        test = value;
        return this;
    }

    /** The person's consent, when the app knows it at start; else {@link Lander#consent(Consent)}. */
    public Consent consent;

    public LanderOptions consent(Consent value) {
        consent = value;
        return this;
    }

    /** Receives the debug lines. */
    public interface Logger {
        void log(String line);
    }
}
