package io.lander.sdk;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.json.JSONObject;

/**
 * An answer that comes late (docs/sdk.md): an "offline" install is asked again in the same session —
 * when the platform says the network is back, else after a backoff (5 s doubling to 5 min) — one
 * attempt at a time, inside the 24-hour window, with the same body and install id ({@link Install});
 * and the deferred link is told to each listener once, whenever it arrives.
 */
final class Late {
    static final long RETRY_FIRST_MS = 5000;
    static final long RETRY_MAX_MS = 5 * 60 * 1000;

    /** Hears a link, or null once the install's answer is final without one. */
    interface Ear {
        void hear(DeferredLink link);
    }

    private final Lander lander;
    private final List<Ear> ears = new CopyOnWriteArrayList<Ear>();
    /** Held for a whole attempt: one at a time. */
    private final Object one = new Object();
    private final Runnable retry = new Runnable() {
        @Override
        public void run() {
            retry();
        }
    };
    private Answer answer;
    private Object timer;
    private long backoff;
    /** This session's answer is final (or past its window): no link is coming unless one is pending. */
    private volatile boolean over;

    Late(Lander lander) {
        this.lander = lander;
    }

    /** The session's answer, asked on the first call (or the one a retry brought). */
    Answer install() {
        synchronized (one) {
            if (answer == null) attempt();
            return answer;
        }
    }

    /** The network is back: ask again now (on the clock's thread, never the caller's) if an offline answer waits. */
    void online() {
        lander.clock.schedule(retry, 0);
    }

    private void retry() {
        synchronized (one) {
            synchronized (this) {
                if (timer == null) return;
                lander.clock.cancel(timer);
                timer = null;
            }
            attempt();
        }
    }

    /** One attempt; then the next one's timer, or the listeners told. Holds {@link #one}. */
    private void attempt() {
        Answer got;
        try {
            got = new Install(lander).run();
        } catch (RuntimeException failed) {
            lander.log.line("install failed: " + failed);
            got = Answer.OFFLINE;
        }
        answer = got;
        JSONObject state = lander.installState();
        long startedAt = state.optLong("startedAt", -1);
        backoff = Math.min(backoff == 0 ? RETRY_FIRST_MS : backoff * 2, RETRY_MAX_MS);
        boolean inWindow = startedAt >= 0 && lander.clock.now() + backoff < startedAt + Install.RETRY_WINDOW_MS;
        if (!state.optBoolean("final") && inWindow) {
            lander.log.line("install: asking again in " + backoff + " ms, or when the network is back");
            synchronized (this) {
                timer = lander.clock.schedule(retry, backoff);
            }
            return;
        }
        over = true;
        DeferredLink link = lander.pendingLink();
        for (Ear ear : ears) ear.hear(link);
    }

    /** Tells {@code hear} each link once (the pending one at once), and null once none is coming; the Runnable stops it. */
    Runnable listen(final Ear hear) {
        final Set<String> heard = new HashSet<String>();
        final Ear ear = new Ear() {
            @Override
            public void hear(DeferredLink link) {
                synchronized (heard) {
                    if (!heard.add(link == null ? null : link.clickId)) return;
                }
                try {
                    hear.hear(link);
                } catch (RuntimeException failed) {
                    lander.log.line("link listener failed: " + failed);
                }
            }
        };
        ears.add(ear);
        DeferredLink pending = lander.pendingLink();
        if (pending != null || over) ear.hear(pending);
        return new Runnable() {
            @Override
            public void run() {
                ears.remove(ear);
            }
        };
    }
}
