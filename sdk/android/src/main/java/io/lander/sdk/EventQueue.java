package io.lander.sdk;

import java.io.IOException;
import java.util.HashSet;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Pattern;
import org.json.JSONArray;
import org.json.JSONObject;

/**
 * The event queue (docs/sdk.md): kept on the device, at most 100 (the oldest go), sent a second after
 * the first is queued, 50 a request, in order; retried with backoff (1 s doubling to 5 min) on
 * 429/5xx/no answer, dropped on any other 4xx. One event goes in the single form, several in the
 * batch form; each keeps its id across retries, and the worker counts an id once. Each carries the
 * time it was tracked ({@code at}), so one sent days later counts on its own day; one older than the
 * worker takes ({@link #MAX_AGE_MS}) is dropped before it is sent, not refused with its batch.
 */
final class EventQueue {
    static final int MAX_QUEUED = 100;
    static final int BATCH_SIZE = 50;
    static final long FLUSH_DELAY_MS = 1000;
    static final long MAX_BACKOFF_MS = 5 * 60 * 1000;
    /** The worker's rule for event names (worker/funnel/events.ts). */
    static final Pattern EVENT_NAME = Pattern.compile("^[a-z0-9][a-z0-9_.-]{0,39}$");
    /** The largest value either sign the worker takes (docs/operators.md#bounds); NaN and Infinity are past it. */
    static final double MAX_VALUE = 1e12;
    /** The oldest {@code at} the worker takes (worker/attribution/contract.ts): 30 days. */
    static final long MAX_AGE_MS = 30L * 24 * 60 * 60 * 1000;

    private final Lander lander;
    private final Object sending = new Object();
    private JSONArray events;
    private Object timer;
    private int failures;

    EventQueue(Lander lander) {
        this.lander = lander;
        this.events = lander.kept.array("events");
        if (events.length() > 0) schedule(FLUSH_DELAY_MS);
    }

    /**
     * Queues one event; false (and nothing queued) when the worker would refuse its name or value, or a
     * currency that is not three capitals with a value (docs/operators.md#revenue).
     */
    synchronized boolean track(String name, Double value, String currency) {
        if (name == null || !EVENT_NAME.matcher(name).matches()) return false;
        if (value != null && !(Math.abs(value) <= MAX_VALUE)) return false;
        if (currency != null && (value == null || !currency.matches("[A-Z]{3}"))) return false;
        JSONObject event = new JSONObject();
        Kept.put(event, "id", UUID.randomUUID().toString());
        Kept.put(event, "name", name);
        if (value != null) Kept.put(event, "value", value.doubleValue());
        if (currency != null) Kept.put(event, "currency", currency);
        Kept.put(event, "at", lander.clock.now());
        events.put(event);
        JSONArray kept = new JSONArray();
        for (int i = Math.max(0, events.length() - MAX_QUEUED); i < events.length(); i++) kept.put(events.opt(i));
        events = kept;
        lander.kept.write("events", events);
        if (timer == null) schedule(FLUSH_DELAY_MS);
        return true;
    }

    /** Sends everything queued now, in order, until the queue is empty or a batch must wait for a retry. */
    void flush() {
        synchronized (sending) {
            synchronized (this) {
                cancel();
            }
            for (;;) {
                JSONArray batch = new JSONArray();
                synchronized (this) {
                    dropTooOld();
                    for (int i = 0; i < events.length() && i < BATCH_SIZE; i++) batch.put(events.opt(i));
                }
                if (batch.length() == 0) return;
                String outcome = send(batch);
                synchronized (this) {
                    if (outcome.equals("retry")) {
                        failures++;
                        long delay = Math.min(1000L << Math.min(failures - 1, 20), MAX_BACKOFF_MS);
                        lander.log.line("event: again in " + delay + " ms");
                        schedule(delay);
                        return;
                    }
                    failures = 0;
                    Set<String> sent = new HashSet<String>();
                    for (int i = 0; i < batch.length(); i++) sent.add(batch.optJSONObject(i).optString("id"));
                    JSONArray left = new JSONArray();
                    for (int i = 0; i < events.length(); i++) {
                        if (!sent.contains(events.optJSONObject(i).optString("id"))) left.put(events.opt(i));
                    }
                    events = left;
                    lander.kept.write("events", events);
                }
            }
        }
    }

    /** "ok", "drop" or "retry". */
    private String send(JSONArray batch) {
        JSONObject body = new JSONObject();
        Kept.put(body, "app", lander.options.app);
        Kept.put(body, "installId", lander.installId());
        // The consent as it is when they are sent: withdrawn since they were tracked, they are not sent on.
        lander.putConsent(body);
        if (batch.length() == 1) {
            JSONObject event = batch.optJSONObject(0);
            Kept.put(body, "name", event.opt("name"));
            if (event.has("value")) Kept.put(body, "value", event.opt("value"));
            if (event.has("currency")) Kept.put(body, "currency", event.opt("currency"));
            Kept.put(body, "id", event.opt("id"));
            if (event.has("at")) Kept.put(body, "at", event.opt("at"));
        } else {
            Kept.put(body, "events", batch);
        }
        lander.log.line("event: sending " + batch.length());
        try {
            Transport.Response response =
                    lander.transport.post(lander.base + "/api/a/event", body.toString(), lander.options.timeoutMs);
            lander.log.line("event: " + response.status);
            if (response.status == 429 || response.status >= 500) return "retry";
            if (response.status < 200 || response.status >= 300) {
                lander.log.line("event: dropped " + batch.length() + ": " + response.status + " " + response.body);
                return "drop";
            }
            return "ok";
        } catch (IOException offline) {
            lander.log.line("event: " + offline);
            return "retry";
        }
    }

    /** Leaves out the events tracked longer ago than the worker takes (an event queued before {@code at} stays). */
    private void dropTooOld() {
        long oldest = lander.clock.now() - MAX_AGE_MS;
        JSONArray left = new JSONArray();
        for (int i = 0; i < events.length(); i++) {
            JSONObject event = events.optJSONObject(i);
            if (!event.has("at") || event.optLong("at") >= oldest) left.put(event);
        }
        if (left.length() == events.length()) return;
        lander.log.line("event: dropped " + (events.length() - left.length()) + " older than 30 days");
        events = left;
        lander.kept.write("events", events);
    }

    private void schedule(long delayMs) {
        cancel();
        timer = lander.clock.schedule(new Runnable() {
            @Override
            public void run() {
                synchronized (EventQueue.this) {
                    timer = null;
                }
                try {
                    flush();
                } catch (RuntimeException unexpected) {
                    lander.log.line("event: flush failed: " + unexpected);
                }
            }
        }, delayMs);
    }

    private void cancel() {
        if (timer != null) lander.clock.cancel(timer);
        timer = null;
    }
}
